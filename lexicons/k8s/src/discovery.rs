//! Resolving an apiVersion + kind to where the server keeps it: built-in kinds from the
//! generated table (no request), anything else (CRDs) from the cluster's own legacy
//! discovery document for that group-version, fetched once and shared by concurrent
//! callers. Only a discovery that answered can say "not served"; a failed one is an
//! error, and an empty one is never taken as an answer.

use crate::api::{ApiError, Cluster};
use crate::kinds::{self, KindInfo, api_prefix, split_api_version};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::OnceCell;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    Served(KindInfo),
    /// Discovery answered and does not serve this kind (or its group-version).
    NotServed(String),
}

type Cell = Arc<OnceCell<Option<Vec<KindInfo>>>>;

pub struct Discovery {
    cluster: Arc<Cluster>,
    cache: Mutex<HashMap<String, Cell>>,
}

impl Discovery {
    pub fn new(cluster: Arc<Cluster>) -> Self {
        Discovery {
            cluster,
            cache: Mutex::new(HashMap::new()),
        }
    }

    pub async fn resolve(&self, api_version: &str, kind: &str) -> Result<Resolution, ApiError> {
        if let Some(info) = kinds::builtin_at(api_version, kind) {
            return Ok(Resolution::Served(info.clone()));
        }
        let Some(served) = self.group_version(api_version).await? else {
            return Ok(Resolution::NotServed(format!(
                "the cluster's API discovery serves no {api_version}"
            )));
        };
        Ok(match served.iter().find(|k| k.kind == kind) {
            Some(info) => Resolution::Served(info.clone()),
            None => Resolution::NotServed(format!(
                "the cluster's API discovery serves no kind {kind} in {api_version}"
            )),
        })
    }

    /// The kinds a group-version serves; `None` when discovery says it is not served.
    pub async fn group_version(
        &self,
        api_version: &str,
    ) -> Result<Option<Vec<KindInfo>>, ApiError> {
        let cell = self
            .cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(api_version.to_owned())
            .or_default()
            .clone();
        cell.get_or_try_init(|| self.fetch(api_version))
            .await
            .cloned()
    }

    async fn fetch(&self, api_version: &str) -> Result<Option<Vec<KindInfo>>, ApiError> {
        let (group, version) = split_api_version(api_version);
        let document = match self.cluster.get(&api_prefix(group, version)).await {
            Ok(document) => document,
            Err(e) if e.is_not_found() => return Ok(None),
            Err(e) => return Err(e),
        };
        let kinds = parse_resource_list(group, version, &document);
        if kinds.is_empty() {
            return Err(ApiError::BadBody(format!(
                "the API discovery document for {api_version} lists no resources"
            )));
        }
        Ok(Some(kinds))
    }
}

/// The top-level resources (no subresources) of an `APIResourceList`.
pub fn parse_resource_list(group: &str, version: &str, document: &Value) -> Vec<KindInfo> {
    document["resources"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| {
            let plural = r["name"].as_str().filter(|n| !n.contains('/'))?;
            Some(KindInfo {
                group: group.to_owned(),
                version: version.to_owned(),
                kind: r["kind"].as_str()?.to_owned(),
                plural: plural.to_owned(),
                namespaced: r["namespaced"].as_bool().unwrap_or(true),
            })
        })
        .collect()
}
