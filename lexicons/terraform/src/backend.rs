//! Where a stock root's state lives: the backend type and an address a person recognises,
//! from terraform's own record of the initialized backend (`.terraform/terraform.tfstate`),
//! else the declared `backend` / `cloud` block, else the local default.
//!
//! Only naming keys are read (bucket, key, path, address, organization, …); credentials in
//! a backend configuration are never touched, and URL userinfo is masked.

use crate::tool::mask_userinfo;
use serde_json::Value;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backend {
    pub kind: String,
    pub address: String,
}

impl Backend {
    /// `local /p/infra/network/terraform.tfstate`
    pub fn describe(&self) -> String {
        format!("{} {}", self.kind, self.address)
    }
}

/// The data dir terraform uses in `dir`: `TF_DATA_DIR` (relative to `dir`) or `.terraform`.
pub fn data_dir(dir: &Path) -> PathBuf {
    match std::env::var_os("TF_DATA_DIR") {
        Some(d) if !d.is_empty() => dir.join(d),
        _ => dir.join(".terraform"),
    }
}

/// The workspace a read selects: the configured one, else the root's selected one, else
/// `default`.
pub fn workspace(configured: Option<&str>, dir: &Path) -> String {
    configured
        .map(str::to_owned)
        .or_else(|| {
            std::fs::read_to_string(data_dir(dir).join("environment"))
                .ok()
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
        })
        .unwrap_or_else(|| "default".to_owned())
}

/// Resolve the backend of the root in `dir`; `declared` is its merged `terraform` block.
pub fn resolve(dir: &Path, declared: Option<&Value>, workspace: &str) -> Backend {
    let recorded = std::fs::read_to_string(data_dir(dir).join("terraform.tfstate"))
        .ok()
        .and_then(|text| serde_json::from_str::<Value>(&text).ok())
        .and_then(|record| {
            let backend = record.get("backend")?;
            let kind = backend.get("type")?.as_str()?.to_owned();
            Some((kind, backend.get("config").cloned().unwrap_or(Value::Null)))
        });
    let (kind, config) = recorded
        .or_else(|| declared_backend(declared?))
        .unwrap_or_else(|| ("local".to_owned(), Value::Null));
    let address = address_of(&kind, &config, dir, workspace);
    Backend {
        kind,
        address: mask_userinfo(&address),
    }
}

/// `terraform { backend "s3" { … } }` or `terraform { cloud { … } }`, as hcl-rs renders it.
fn declared_backend(settings: &Value) -> Option<(String, Value)> {
    if let Some(backends) = settings.get("backend").and_then(Value::as_object) {
        let (kind, config) = backends.iter().next()?;
        return Some((kind.clone(), config.clone()));
    }
    settings
        .get("cloud")
        .map(|config| ("cloud".to_owned(), config.clone()))
}

fn address_of(kind: &str, config: &Value, dir: &Path, workspace: &str) -> String {
    let get = |key: &str| config.get(key).and_then(Value::as_str).unwrap_or_default();
    match kind {
        "local" => {
            let path = if workspace == "default" {
                non_empty(get("path"))
                    .unwrap_or("terraform.tfstate")
                    .to_owned()
            } else {
                format!(
                    "{}/{workspace}/terraform.tfstate",
                    non_empty(get("workspace_dir")).unwrap_or("terraform.tfstate.d")
                )
            };
            dir.join(path).display().to_string()
        }
        "s3" => format!("s3://{}/{}", get("bucket"), get("key")),
        "gcs" => format!("gs://{}/{}", get("bucket"), get("prefix")),
        "azurerm" => format!(
            "azurerm://{}/{}/{}",
            get("storage_account_name"),
            get("container_name"),
            get("key")
        ),
        "http" | "consul" => format!("{}{}", get("address"), get("path")),
        "remote" | "cloud" => {
            let workspaces = config.get("workspaces");
            let named = workspaces
                .and_then(|w| w.get("name").or_else(|| w.get("prefix")))
                .and_then(Value::as_str)
                .unwrap_or(workspace);
            format!(
                "{}/{}/{named}",
                non_empty(get("hostname")).unwrap_or("app.terraform.io"),
                get("organization")
            )
        }
        "kubernetes" => format!("secret tfstate-{workspace}-{}", get("secret_suffix")),
        "pg" => format!(
            "schema {}",
            non_empty(get("schema_name")).unwrap_or("terraform_remote_state")
        ),
        other => format!("({other} backend)"),
    }
}

fn non_empty(s: &str) -> Option<&str> {
    (!s.is_empty()).then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_initialized_record_wins_and_secrets_stay_out() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".terraform")).unwrap();
        std::fs::write(
            dir.path().join(".terraform/terraform.tfstate"),
            json!({"backend": {"type": "http", "config": {"address": "https://u:pw@state.example/x", "password": "pw"}}}).to_string(),
        )
        .unwrap();
        let declared = json!({"backend": {"s3": {"bucket": "b", "key": "k"}}});
        let backend = resolve(dir.path(), Some(&declared), "default");
        assert_eq!(backend.describe(), "http https://***@state.example/x");
    }

    #[test]
    fn declared_blocks_and_the_local_default() {
        let dir = tempfile::tempdir().unwrap();
        let s3 = json!({"backend": {"s3": {"bucket": "tfstate", "key": "net.tfstate", "secret_key": "x"}}});
        assert_eq!(
            resolve(dir.path(), Some(&s3), "default").describe(),
            "s3 s3://tfstate/net.tfstate"
        );
        let cloud = json!({"cloud": {"organization": "acme", "workspaces": {"name": "net"}}});
        assert_eq!(
            resolve(dir.path(), Some(&cloud), "default").describe(),
            "cloud app.terraform.io/acme/net"
        );
        let local = resolve(dir.path(), None, "default");
        assert_eq!(local.kind, "local");
        assert_eq!(
            local.address,
            dir.path().join("terraform.tfstate").display().to_string()
        );
        let dev = resolve(dir.path(), None, "dev");
        assert!(
            dev.address
                .ends_with("terraform.tfstate.d/dev/terraform.tfstate")
        );
    }

    #[test]
    fn the_selected_workspace_is_read_from_the_data_dir() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(workspace(None, dir.path()), "default");
        std::fs::create_dir(dir.path().join(".terraform")).unwrap();
        std::fs::write(dir.path().join(".terraform/environment"), "staging\n").unwrap();
        assert_eq!(workspace(None, dir.path()), "staging");
        assert_eq!(workspace(Some("dev"), dir.path()), "dev");
    }
}
