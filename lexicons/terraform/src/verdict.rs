//! Instance verdicts folded onto one block: a chant entity is the HCL block and the rows
//! are instances, so a block with `count` / `for_each` takes the aggregate of its
//! instances, and the least certain instance wins.
//!
//! Certainty, least first: not observed < present with unknown ownership < present
//! foreign < present owned by derivation < present owned by the marker. Absent instances
//! beside present ones leave the block present and say how many are missing; a block whose
//! every instance is absent is absent.

use crate::address::InstanceAddress;
use chant_lexicon::{
    DeclaredEntity, Observation, Ownership, OwnershipMarker, ResourceMetadata, UnobservedEntity,
    UnobservedReason,
};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// What a read said about one instance.
#[derive(Clone, Debug, PartialEq)]
pub enum InstanceVerdict {
    Present(PresentInstance),
    Absent,
    Unobserved {
        reason: UnobservedReason,
        detail: String,
    },
}

/// A present instance: the identifying facts and nothing of its values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PresentInstance {
    pub id: Option<String>,
    pub provider: Option<String>,
    pub ownership: Ownership,
    pub marker: Option<OwnershipMarker>,
    pub bound_by: Option<String>,
    /// The tag values one write would claim an adoptable instance with.
    pub claim: Option<Map<String, Value>>,
    pub tainted: bool,
}

impl PresentInstance {
    fn certainty(&self) -> u8 {
        match self.ownership {
            Ownership::Unknown => 1,
            Ownership::Foreign => 2,
            Ownership::Owned if self.bound_by.is_some() || self.marker.is_none() => 3,
            Ownership::Owned => 4,
        }
    }
}

/// One block's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum BlockVerdict {
    Present(Box<ResourceMetadata>),
    Absent,
    Unobserved {
        reason: UnobservedReason,
        detail: String,
    },
}

/// Fold a resource block's instances. `instances` must not be empty.
pub fn fold_resource(
    root: &str,
    block: &InstanceAddress,
    instances: &[(String, InstanceVerdict)],
) -> BlockVerdict {
    if let Some(hole) = least_certain_hole(instances) {
        return hole;
    }
    let present: Vec<(&str, &PresentInstance)> = instances
        .iter()
        .filter_map(|(address, v)| match v {
            InstanceVerdict::Present(p) => Some((address.as_str(), p)),
            _ => None,
        })
        .collect();
    let Some(&(_, weakest)) = present.iter().min_by_key(|(_, p)| p.certainty()) else {
        return BlockVerdict::Absent;
    };
    let missing = instances.len() - present.len();
    let status = if present.iter().any(|(_, p)| p.tainted) {
        "TAINTED".to_owned()
    } else if missing > 0 {
        format!("INCOMPLETE({}/{})", present.len(), instances.len())
    } else {
        "PRESENT".to_owned()
    };
    let mut meta = ResourceMetadata::new(block.entity_type(), status)
        .with_ownership(weakest.ownership)
        .with_marker(weakest.marker.clone())
        .with_attribute("address", block.block())
        .with_attribute("type", block.resource_type.clone())
        .with_attribute("mode", block.mode.as_str())
        .with_attribute("root", root);
    meta.bound_by = weakest.bound_by.clone();
    if let Some(provider) = present.iter().find_map(|(_, p)| p.provider.clone()) {
        meta = meta.with_attribute("provider", provider);
    }
    if let Some(claim) = &weakest.claim {
        meta = meta.with_attribute("claim", Value::Object(claim.clone()));
    }
    match present.as_slice() {
        [(address, only)] if *address == block.block() => meta.physical_id = only.id.clone(),
        _ => {
            let ids: Map<String, Value> = present
                .iter()
                .map(|(address, p)| {
                    (
                        (*address).to_owned(),
                        p.id.clone().map_or(Value::Null, Value::String),
                    )
                })
                .collect();
            meta = meta.with_attribute("instances", Value::Object(ids));
        }
    }
    BlockVerdict::Present(Box::new(meta))
}

/// Fold everything under a module call. No row names the block itself, so a present
/// module is never more than `unknown`.
pub fn fold_module(
    root: &str,
    address: &str,
    instances: &[(String, InstanceVerdict)],
) -> BlockVerdict {
    if let Some(hole) = least_certain_hole(instances) {
        return hole;
    }
    let present = instances
        .iter()
        .filter(|(_, v)| matches!(v, InstanceVerdict::Present(_)))
        .count();
    if present == 0 {
        return BlockVerdict::Absent;
    }
    let meta = ResourceMetadata::new(crate::address::MODULE_TYPE, "PRESENT")
        .with_ownership(Ownership::Unknown)
        .with_attribute("address", address)
        .with_attribute("root", root)
        .with_attribute("resources", present);
    BlockVerdict::Present(Box::new(meta))
}

/// One not-observed instance makes the block not observed: partial knowledge is not
/// knowledge.
fn least_certain_hole(instances: &[(String, InstanceVerdict)]) -> Option<BlockVerdict> {
    let holes: Vec<(&str, UnobservedReason, &str)> = instances
        .iter()
        .filter_map(|(address, v)| match v {
            InstanceVerdict::Unobserved { reason, detail } => {
                Some((address.as_str(), *reason, detail.as_str()))
            }
            _ => None,
        })
        .collect();
    let (address, reason, detail) = *holes.first()?;
    let detail = if instances.len() == 1 {
        detail.to_owned()
    } else {
        format!(
            "{} of {} instances not observed; {address}: {detail}",
            holes.len(),
            instances.len()
        )
    };
    Some(BlockVerdict::Unobserved { reason, detail })
}

/// Instances of one root, by the block that declares them and by the module call they
/// live under.
#[derive(Default)]
pub struct Grouped {
    pub blocks: BTreeMap<String, (InstanceAddress, Vec<(String, InstanceVerdict)>)>,
    pub modules: BTreeMap<String, Vec<(String, InstanceVerdict)>>,
}

impl Grouped {
    pub fn new(rows: impl IntoIterator<Item = (InstanceAddress, InstanceVerdict)>) -> Self {
        let mut out = Grouped::default();
        for (address, verdict) in rows {
            let instance = address.instance.clone();
            if let Some(module) = address.top_module() {
                out.modules
                    .entry(module)
                    .or_default()
                    .push((instance.clone(), verdict.clone()));
            }
            out.blocks
                .entry(address.block())
                .or_insert_with(|| (address, Vec::new()))
                .1
                .push((instance, verdict));
        }
        out
    }
}

/// What kind of block a declared entity is, from its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    Resource,
    Data,
    Module,
    /// `terraform`, `provider`, `variable`, `output`, `locals`: nothing live to look for.
    Other,
}

impl BlockKind {
    pub fn of(entity_type: &str) -> BlockKind {
        if entity_type.starts_with("Terraform::Resource::") {
            BlockKind::Resource
        } else if entity_type.starts_with("Terraform::Data::") {
            BlockKind::Data
        } else if entity_type == crate::address::MODULE_TYPE {
            BlockKind::Module
        } else {
            BlockKind::Other
        }
    }
}

/// The unobserved entry for a block kind that has no row anywhere.
pub fn no_live_counterpart(entity: &DeclaredEntity) -> UnobservedEntity {
    let keyword = match entity.entity_type.as_str() {
        crate::address::SETTINGS_TYPE => "a terraform",
        crate::address::PROVIDER_TYPE => "a provider",
        crate::address::VARIABLE_TYPE => "a variable",
        crate::address::OUTPUT_TYPE => "an output",
        crate::address::LOCALS_TYPE => "a locals",
        _ => "this",
    };
    UnobservedEntity::new(UnobservedReason::UnsupportedKind)
        .typed(&entity.entity_type)
        .detail(format!(
            "{keyword} block has no live counterpart to look for"
        ))
}

/// Every entity of a root not observed, for one reason, the root named in the detail.
pub fn unobserve_root(
    root: &str,
    entities: &[&DeclaredEntity],
    reason: UnobservedReason,
    detail: &str,
    queried: Option<&str>,
) -> Observation {
    let mut out = Observation::new();
    for entity in entities {
        let mut entry = UnobservedEntity::new(reason)
            .typed(&entity.entity_type)
            .detail(format!("root {root}: {detail}"));
        entry.queried = queried.map(str::to_owned);
        out.unobserved(&entity.name, entry);
    }
    out
}

/// Record one block's verdict.
pub fn record(
    out: &mut Observation,
    entity: &DeclaredEntity,
    verdict: BlockVerdict,
    queried: &str,
) {
    out.queried(&entity.name, queried);
    match verdict {
        BlockVerdict::Present(meta) => out.present(&entity.name, *meta),
        BlockVerdict::Absent => {}
        BlockVerdict::Unobserved { reason, detail } => out.unobserved(
            &entity.name,
            UnobservedEntity::new(reason)
                .typed(&entity.entity_type)
                .detail(detail)
                .queried(queried),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owned(id: &str) -> InstanceVerdict {
        InstanceVerdict::Present(PresentInstance {
            id: Some(id.into()),
            ownership: Ownership::Owned,
            marker: Some(OwnershipMarker {
                stack: "shop-dns".into(),
                env: None,
            }),
            ..Default::default()
        })
    }

    fn with(ownership: Ownership) -> InstanceVerdict {
        InstanceVerdict::Present(PresentInstance {
            id: Some("x".into()),
            ownership,
            ..Default::default()
        })
    }

    fn block() -> InstanceAddress {
        InstanceAddress::parse("aws_subnet.a").unwrap()
    }

    fn rows(verdicts: Vec<InstanceVerdict>) -> Vec<(String, InstanceVerdict)> {
        verdicts
            .into_iter()
            .enumerate()
            .map(|(i, v)| (format!("aws_subnet.a[{i}]"), v))
            .collect()
    }

    fn present(verdict: BlockVerdict) -> ResourceMetadata {
        match verdict {
            BlockVerdict::Present(meta) => *meta,
            other => panic!("expected present, got {other:?}"),
        }
    }

    #[test]
    fn one_unobserved_instance_makes_the_block_unobserved() {
        let verdict = fold_resource(
            "net",
            &block(),
            &rows(vec![
                owned("a"),
                InstanceVerdict::Unobserved {
                    reason: UnobservedReason::NoCredentials,
                    detail: "AccessDenied".into(),
                },
                InstanceVerdict::Absent,
            ]),
        );
        assert_eq!(
            verdict,
            BlockVerdict::Unobserved {
                reason: UnobservedReason::NoCredentials,
                detail: "1 of 3 instances not observed; aws_subnet.a[1]: AccessDenied".into()
            }
        );
    }

    #[test]
    fn the_least_certain_present_instance_sets_the_ownership() {
        let meta = present(fold_resource(
            "net",
            &block(),
            &rows(vec![owned("a"), with(Ownership::Foreign), owned("c")]),
        ));
        assert_eq!(meta.ownership(), Ownership::Foreign);
        assert_eq!(meta.marker, None);
        let meta = present(fold_resource(
            "net",
            &block(),
            &rows(vec![
                owned("a"),
                with(Ownership::Unknown),
                with(Ownership::Foreign),
            ]),
        ));
        assert_eq!(meta.ownership(), Ownership::Unknown);
        let meta = present(fold_resource(
            "net",
            &block(),
            &rows(vec![owned("a"), owned("b")]),
        ));
        assert_eq!(meta.ownership(), Ownership::Owned);
        assert_eq!(meta.marker.unwrap().stack, "shop-dns");
        assert_eq!(meta.attributes["instances"]["aws_subnet.a[1]"], "b");
        assert_eq!(meta.physical_id, None);
    }

    #[test]
    fn absent_instances_leave_the_block_present_and_incomplete() {
        let meta = present(fold_resource(
            "net",
            &block(),
            &rows(vec![owned("a"), InstanceVerdict::Absent]),
        ));
        assert_eq!(meta.status, "INCOMPLETE(1/2)");
        assert_eq!(
            fold_resource("net", &block(), &rows(vec![InstanceVerdict::Absent])),
            BlockVerdict::Absent
        );
    }

    #[test]
    fn a_single_instance_reports_its_id_as_the_physical_id_and_nothing_else() {
        let meta = present(fold_resource(
            "net",
            &block(),
            &[("aws_subnet.a".to_owned(), owned("subnet-1"))],
        ));
        assert_eq!(meta.physical_id.as_deref(), Some("subnet-1"));
        let keys: Vec<&str> = meta.attributes.keys().map(String::as_str).collect();
        assert_eq!(keys, ["address", "mode", "root", "type"]);
    }

    #[test]
    fn modules_are_present_unknown_unless_an_instance_was_not_observed() {
        let meta = present(fold_module(
            "net",
            "module.vpc",
            &rows(vec![owned("a"), InstanceVerdict::Absent]),
        ));
        assert_eq!(meta.ownership(), Ownership::Unknown);
        assert_eq!(meta.entity_type, "Terraform::Module");
        assert_eq!(
            fold_module("net", "module.vpc", &rows(vec![InstanceVerdict::Absent])),
            BlockVerdict::Absent
        );
    }
}
