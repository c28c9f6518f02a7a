//! The binding: which cluster, as whom, through which kubeconfig — with kubectl's
//! semantics (a `KUBECONFIG` list merged first-wins, `~/.kube/config`, in-cluster), the
//! environment's pinned context from chant.toml (reads never fall back to another), and
//! the exec credential plugin allow-list checked before any request is made.

use crate::api::{Cluster, RequestPolicy};
use crate::settings::EnvironmentSettings;
use crate::transport::KubeTransport;
use kube::config::{KubeConfigOptions, Kubeconfig};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// A resolved binding: a client and where it points.
pub struct Binding {
    pub cluster: Arc<Cluster>,
    /// The API server URL the reads use (userinfo masked).
    pub server: String,
    pub context: Option<String>,
    /// The namespace for objects that declare none (before `--namespace`).
    pub default_namespace: String,
    /// Where the binding came from, in the project's vocabulary.
    pub source: String,
    /// How the client authenticates (never the credential itself).
    pub credential: &'static str,
    /// True when chant.toml pins no context for the environment.
    pub ambient: bool,
}

impl Binding {
    /// `context "kind-dev" (environments.dev.k8s.context)` — prefixed to failure details.
    pub fn context_note(&self) -> String {
        format!(
            "context \"{}\" ({})",
            self.context.as_deref().unwrap_or("(unset)"),
            self.source
        )
    }
}

/// Why there is no binding.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BindError {
    /// The kubeconfig cannot be read, or names no usable context/cluster.
    #[error("{0}")]
    Kubeconfig(String),
    /// The context authenticates with an exec plugin not on the allow-list.
    #[error("{0}")]
    ExecNotAllowed(String),
}

/// What a binding is resolved from.
pub struct BindRequest<'a> {
    pub environment: &'a str,
    pub settings: Option<&'a EnvironmentSettings>,
    pub project_root: &'a std::path::Path,
    pub exec_allowlist: &'a [String],
    pub timeout: Duration,
    /// Requests in flight at once.
    pub pool: usize,
}

pub async fn bind(request: &BindRequest<'_>) -> Result<Binding, BindError> {
    let settings = request.settings.cloned().unwrap_or_default();
    let (kubeconfig, file_source) = match load_kubeconfig(&settings, request.project_root) {
        Ok(found) => found,
        Err(error) if in_cluster_available() && settings.kubeconfig.is_none() => {
            tracing::debug!("no kubeconfig ({error}); using the in-cluster service account");
            return in_cluster(request, &settings);
        }
        Err(error) => return Err(error),
    };
    let env = request.environment;
    let (context, source, ambient) = match &settings.context {
        Some(pinned) => (
            pinned.clone(),
            format!("environments.{env}.k8s.context in chant.toml, {file_source}"),
            false,
        ),
        None => {
            let current = kubeconfig.current_context.clone().ok_or_else(|| {
                BindError::Kubeconfig(format!(
                    "k8s: environment \"{env}\" pins no context (environments.{env}.k8s.context) and {file_source} has no current-context"
                ))
            })?;
            (
                current,
                format!(
                    "ambient current-context of {file_source}; no environments.{env}.k8s.context"
                ),
                true,
            )
        }
    };
    let named = kubeconfig
        .contexts
        .iter()
        .find(|c| c.name == context)
        .ok_or_else(|| {
            let names: Vec<String> = kubeconfig.contexts.iter().map(|c| format!("\"{}\"", c.name)).collect();
            let has = if names.is_empty() {
                "no contexts at all".to_owned()
            } else {
                names.join(", ")
            };
            BindError::Kubeconfig(format!(
                "k8s: the kubeconfig has no context named \"{context}\" (it has {has}); environments.{env}.k8s.context pins this environment to it"
            ))
        })?;
    let user = named.context.as_ref().and_then(|c| c.user.clone());
    let auth = user.as_ref().and_then(|u| {
        kubeconfig
            .auth_infos
            .iter()
            .find(|a| &a.name == u)
            .and_then(|a| a.auth_info.clone())
    });
    check_exec_plugin(auth.as_ref(), request.exec_allowlist)?;
    let credential = credential_kind(auth.as_ref());
    let context_namespace = named.context.as_ref().and_then(|c| c.namespace.clone());
    let options = KubeConfigOptions {
        context: Some(context.clone()),
        ..Default::default()
    };
    let config = kube::Config::from_custom_kubeconfig(kubeconfig, &options)
        .await
        .map_err(|e| BindError::Kubeconfig(format!("k8s: context \"{context}\": {e}")))?;
    let server = mask_userinfo(&config.cluster_url.to_string());
    let default_namespace = settings
        .namespace
        .clone()
        .or(context_namespace)
        .unwrap_or_else(|| "default".to_owned());
    let cluster = client(config, request.timeout, request.pool)?;
    Ok(Binding {
        cluster,
        server,
        context: Some(context),
        default_namespace,
        source,
        credential,
        ambient,
    })
}

fn load_kubeconfig(
    settings: &EnvironmentSettings,
    root: &std::path::Path,
) -> Result<(Kubeconfig, String), BindError> {
    if let Some(path) = &settings.kubeconfig {
        let path = expand_home(path).unwrap_or_else(|| root.join(path));
        return Kubeconfig::read_from(&path)
            .map(|k| (k, format!("kubeconfig {}", path.display())))
            .map_err(|e| {
                BindError::Kubeconfig(format!(
                    "k8s: cannot read the kubeconfig {}: {e}",
                    path.display()
                ))
            });
    }
    match Kubeconfig::from_env() {
        Ok(Some(merged)) => Ok((merged, "KUBECONFIG".to_owned())),
        Ok(None) => {
            let path = home().map(|h| h.join(".kube/config")).ok_or_else(|| {
                BindError::Kubeconfig(
                    "k8s: no KUBECONFIG and no home directory for ~/.kube/config".into(),
                )
            })?;
            Kubeconfig::read_from(&path)
                .map(|k| (k, "~/.kube/config".to_owned()))
                .map_err(|e| BindError::Kubeconfig(format!("k8s: cannot read ~/.kube/config: {e}")))
        }
        Err(e) => Err(BindError::Kubeconfig(format!(
            "k8s: cannot read KUBECONFIG: {e}"
        ))),
    }
}

fn in_cluster_available() -> bool {
    std::env::var_os("KUBERNETES_SERVICE_HOST").is_some()
}

fn in_cluster(
    request: &BindRequest<'_>,
    settings: &EnvironmentSettings,
) -> Result<Binding, BindError> {
    let config = kube::Config::incluster()
        .map_err(|e| BindError::Kubeconfig(format!("k8s: in-cluster configuration: {e}")))?;
    let server = mask_userinfo(&config.cluster_url.to_string());
    let default_namespace = settings
        .namespace
        .clone()
        .unwrap_or_else(|| config.default_namespace.clone());
    Ok(Binding {
        cluster: client(config, request.timeout, request.pool)?,
        server,
        context: None,
        default_namespace,
        source: "in-cluster service account".to_owned(),
        credential: "in-cluster",
        ambient: settings.context.is_none(),
    })
}

fn client(
    mut config: kube::Config,
    timeout: Duration,
    pool: usize,
) -> Result<Arc<Cluster>, BindError> {
    // kube sets no read timeout by default, and its own retry layer would wait up to
    // 1000 s on a throttled server: chant bounds and retries requests itself.
    // chant's own per-request timeout (in `api.rs`) fires first; kube's read timeout
    // only backs it up.
    config.read_timeout = Some(timeout + Duration::from_secs(5));
    config.connect_timeout = Some(timeout.min(Duration::from_secs(10)));
    config.default_retry = false;
    let transport = KubeTransport::new(config)
        .map_err(|e| BindError::Kubeconfig(format!("k8s: cannot build a client: {e}")))?;
    let mut policy = RequestPolicy::new(timeout);
    policy.max_in_flight = pool;
    Ok(Arc::new(Cluster::new(Arc::new(transport), policy)))
}

/// Refuse, before any request, a context whose user runs an exec plugin (directly or
/// through an auth-provider's `cmd-path`) that is not on the allow-list.
fn check_exec_plugin(
    auth: Option<&kube::config::AuthInfo>,
    allowlist: &[String],
) -> Result<(), BindError> {
    let Some(auth) = auth else {
        return Ok(());
    };
    let command = auth
        .exec
        .as_ref()
        .and_then(|e| e.command.clone())
        .or_else(|| {
            auth.auth_provider
                .as_ref()
                .and_then(|p| p.config.get("cmd-path").cloned())
        });
    let Some(command) = command else {
        return Ok(());
    };
    let program = plugin_name(&command);
    if allowlist
        .iter()
        .any(|allowed| plugin_name(allowed) == program)
    {
        return Ok(());
    }
    Err(BindError::ExecNotAllowed(format!(
        "k8s: the kubeconfig for this context authenticates with the exec credential plugin \"{command}\", which is not on chant's allow-list ({}). An exec plugin is an arbitrary program named in a file chant did not write; if \"{program}\" is expected, add it to allowed_exec_plugins under [lexicons.k8s] in chant.toml.",
        allowlist.join(", ")
    )))
}

/// The base name of a command, without a Windows executable suffix.
fn plugin_name(command: &str) -> String {
    let base = command.rsplit(['/', '\\']).next().unwrap_or(command);
    for suffix in [".exe", ".cmd", ".bat"] {
        if base.len() > suffix.len()
            && base[base.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
        {
            return base[..base.len() - suffix.len()].to_owned();
        }
    }
    base.to_owned()
}

fn credential_kind(auth: Option<&kube::config::AuthInfo>) -> &'static str {
    let Some(auth) = auth else {
        return "none";
    };
    if auth.exec.is_some() {
        "exec-plugin"
    } else if auth.auth_provider.is_some() {
        "auth-provider"
    } else if auth.token.is_some() || auth.token_file.is_some() {
        "token"
    } else if auth.client_certificate.is_some() || auth.client_certificate_data.is_some() {
        "client-certificate"
    } else if auth.username.is_some() {
        "basic-auth"
    } else {
        "none"
    }
}

/// `https://user:pass@host` → `https://***@host`.
pub fn mask_userinfo(url: &str) -> String {
    let trimmed = url.trim_end_matches('/');
    match trimmed.split_once("://") {
        Some((scheme, rest)) => match rest.split_once('@') {
            Some((_, host)) if !host.contains('/') || rest.find('@') < rest.find('/') => {
                format!("{scheme}://***@{host}")
            }
            _ => trimmed.to_owned(),
        },
        None => trimmed.to_owned(),
    }
}

fn home() -> Option<PathBuf> {
    std::env::var_os("HOME").map(PathBuf::from)
}

fn expand_home(path: &str) -> Option<PathBuf> {
    path.strip_prefix("~/")
        .and_then(|rest| home().map(|h| h.join(rest)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plugin_names_ignore_directories_and_windows_suffixes() {
        assert_eq!(plugin_name("/usr/local/bin/aws"), "aws");
        assert_eq!(plugin_name("C:\\bin\\kubelogin.EXE"), "kubelogin");
        assert_eq!(plugin_name("evil.exe.sh"), "evil.exe.sh");
    }

    #[test]
    fn a_disallowed_exec_plugin_is_refused_by_name() {
        let auth = kube::config::AuthInfo {
            exec: Some(kube::config::ExecConfig {
                command: Some("/tmp/steal-creds".into()),
                ..serde_json::from_str("{}").unwrap()
            }),
            ..Default::default()
        };
        let allow: Vec<String> = crate::settings::DEFAULT_EXEC_ALLOWLIST
            .iter()
            .map(|s| s.to_string())
            .collect();
        let err = check_exec_plugin(Some(&auth), &allow).unwrap_err();
        assert!(err.to_string().contains("\"/tmp/steal-creds\""), "{err}");
        assert!(check_exec_plugin(Some(&auth), &["steal-creds".to_owned()]).is_ok());
        assert_eq!(credential_kind(Some(&auth)), "exec-plugin");
    }

    #[test]
    fn userinfo_is_masked() {
        assert_eq!(mask_userinfo("https://u:p@h:6443/"), "https://***@h:6443");
        assert_eq!(mask_userinfo("https://h:6443/"), "https://h:6443");
    }
}
