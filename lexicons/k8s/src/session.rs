//! One hook call's view of the cluster: the binding, discovery, and how each declared
//! entity's read address is resolved (namespace defaulting made visible), plus the
//! mapping of failures onto reasons.

use crate::api::ApiError;
use crate::binding::{BindError, Binding};
use crate::discovery::{Discovery, Resolution};
use crate::kinds::{self, KindInfo};
use chant_lexicon::{DeclaredEntity, UnobservedReason};
use std::sync::{Arc, Mutex};
use tokio::sync::OnceCell;

pub struct Session {
    pub binding: Binding,
    pub discovery: Discovery,
    /// The targets last resolved: the thin and the deep read of one command resolve the
    /// same declared entities, and do it once.
    resolved: Mutex<Option<Resolved>>,
}

/// Where each declared entity is read, in their order.
pub type Targets = Arc<Vec<Result<Target, Unaddressable>>>;

struct Resolved {
    /// Held, so that no other list of entities can be made at the same address.
    entities: Arc<Vec<DeclaredEntity>>,
    cli_namespace: Option<String>,
    targets: Arc<OnceCell<Targets>>,
}

/// Where one declared object is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub info: KindInfo,
    pub namespace: Option<String>,
    pub name: String,
}

impl Target {
    pub fn path(&self) -> String {
        self.info.object_path(self.namespace.as_deref(), &self.name)
    }

    pub fn collection(&self) -> String {
        self.info.collection_path(self.namespace.as_deref())
    }
}

/// A declared entity that cannot be read at an address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unaddressable {
    /// Discovery answered: the kind is not served, so the object cannot exist.
    NotServed { detail: String },
    Unobserved {
        reason: UnobservedReason,
        detail: String,
    },
}

impl Session {
    pub fn new(binding: Binding) -> Self {
        let discovery = Discovery::new(binding.cluster.clone());
        Session {
            binding,
            discovery,
            resolved: Mutex::default(),
        }
    }

    /// Where the targets of exactly these entities (the same list, not an equal one) with
    /// this `--namespace` are resolved once.
    pub fn targets_of(
        &self,
        entities: &Arc<Vec<DeclaredEntity>>,
        cli_namespace: Option<&str>,
    ) -> Arc<OnceCell<Targets>> {
        let mut resolved = self.resolved.lock().unwrap_or_else(|p| p.into_inner());
        match &*resolved {
            Some(r)
                if Arc::ptr_eq(&r.entities, entities)
                    && r.cli_namespace.as_deref() == cli_namespace =>
            {
                r.targets.clone()
            }
            _ => {
                let targets = Arc::new(OnceCell::new());
                *resolved = Some(Resolved {
                    entities: entities.clone(),
                    cli_namespace: cli_namespace.map(str::to_owned),
                    targets: targets.clone(),
                });
                targets
            }
        }
    }

    /// A new command begins: its entities are resolved afresh (discovery may have
    /// changed).
    pub fn forget_targets(&self) {
        self.resolved
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
    }

    /// The declared object's own namespace, else `--namespace`, else the environment's
    /// or the context's default.
    pub async fn target(
        &self,
        entity: &DeclaredEntity,
        cli_namespace: Option<&str>,
    ) -> Result<Target, Unaddressable> {
        let meta = &entity.props["metadata"];
        let Some(name) = meta["name"].as_str().filter(|n| !n.is_empty()) else {
            return Err(Unaddressable::Unobserved {
                reason: UnobservedReason::ReadFailed,
                detail: "the declared object has no metadata.name to read by".into(),
            });
        };
        let declared_version = entity.props["apiVersion"].as_str();
        let declared_kind = entity.props["kind"].as_str();
        let (api_version, kind) = match (declared_version, declared_kind) {
            (Some(v), Some(k)) => (v.to_owned(), k.to_owned()),
            _ => match kinds::for_entity_type(&entity.entity_type) {
                Some(info) => (info.api_version(), info.kind.clone()),
                None => {
                    return Err(Unaddressable::Unobserved {
                        reason: UnobservedReason::UnsupportedKind,
                        detail: format!(
                            "{} declares no apiVersion/kind and is not a built-in kind",
                            entity.entity_type
                        ),
                    });
                }
            },
        };
        let info = match self.discovery.resolve(&api_version, &kind).await {
            Ok(Resolution::Served(info)) => info,
            Ok(Resolution::NotServed(detail)) => return Err(Unaddressable::NotServed { detail }),
            Err(error) => {
                let (reason, detail) = self.classify(&error);
                return Err(Unaddressable::Unobserved { reason, detail });
            }
        };
        let namespace = info.namespaced.then(|| {
            meta["namespace"]
                .as_str()
                .filter(|n| !n.is_empty())
                .or(cli_namespace)
                .unwrap_or(&self.binding.default_namespace)
                .to_owned()
        });
        Ok(Target {
            info,
            namespace,
            name: name.to_owned(),
        })
    }

    /// A failed request as a reason and a detail naming the context.
    pub fn classify(&self, error: &ApiError) -> (UnobservedReason, String) {
        (
            reason_of(error),
            detail(&self.binding.context_note(), &error.to_string()),
        )
    }
}

pub fn reason_of(error: &ApiError) -> UnobservedReason {
    match error {
        ApiError::Status {
            code: 401 | 403, ..
        } => UnobservedReason::NoCredentials,
        ApiError::Transport(_) => UnobservedReason::NoBinding,
        _ => UnobservedReason::ReadFailed,
    }
}

pub fn bind_reason(error: &BindError) -> UnobservedReason {
    match error {
        BindError::Kubeconfig(_) => UnobservedReason::NoBinding,
        BindError::ExecNotAllowed(_) => UnobservedReason::NoCredentials,
    }
}

/// `<note> — <first line of the message, at most 200 characters>`.
pub fn detail(note: &str, message: &str) -> String {
    let first = message
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("request failed");
    let first: String = if first.chars().count() > 200 {
        first.chars().take(197).chain("...".chars()).collect()
    } else {
        first.to_owned()
    };
    format!("{note} — {first}")
}
