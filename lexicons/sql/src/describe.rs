//! `describe_resources`: every declared object present, absent or not observed, plus the
//! undeclared objects of the declared schemas (orphans: `delete` when owned, else `adopt`).

use crate::names::{Kind, schema_of};
use crate::session::{Fault, Listing, LiveObject};
use chant_lexicon::{
    Observation, ObserveRequest, Ownership, ResourceMetadata, UnobservedEntity, UnobservedReason,
};

/// The default schema is the database's own, never an orphan.
pub fn is_builtin(name: &str) -> bool {
    name == "schema/public" || name == "schema/main"
}

pub fn metadata(
    object: &LiveObject,
    request_project: &chant_lexicon::ProjectMarker,
) -> ResourceMetadata {
    let mut meta = ResourceMetadata::new(object.key.kind.entity_type(), &object.status)
        .with_ownership(request_project.classify(object.marker.as_ref()))
        .with_marker(object.marker.clone());
    meta.physical_id = object.physical_id.clone();
    meta
}

/// Every declared entity, one reason (the bind failed).
pub fn unbound(request: &ObserveRequest, fault: &Fault) -> Observation {
    Observation::all_unobserved(
        request
            .entities
            .iter()
            .map(|e| (e.name.as_str(), Some(e.entity_type.as_str()))),
        fault.reason,
        Some(&fault.detail),
    )
}

pub fn observation(
    listing: &Listing,
    request: &ObserveRequest,
    address: &str,
    scope: &[String],
) -> Observation {
    let mut out = Observation::new();
    for entity in request.entities.iter() {
        let queried = format!("{address}#{}", entity.name);
        let unobserved = |reason, detail: String| {
            UnobservedEntity::new(reason)
                .typed(&entity.entity_type)
                .detail(detail)
                .queried(queried.clone())
        };
        let Some(kind) = Kind::from_entity_type(&entity.entity_type) else {
            out.unobserved(
                &entity.name,
                unobserved(
                    UnobservedReason::UnsupportedKind,
                    format!("the sql lexicon has no reader for {}", entity.entity_type),
                ),
            );
            continue;
        };
        out.queried(&entity.name, &queried);
        if let Some(detail) = listing.failed.get(&kind) {
            out.unobserved(
                &entity.name,
                unobserved(
                    UnobservedReason::ReadFailed,
                    format!("listing {kind}s failed: {detail}"),
                ),
            );
            continue;
        }
        let Some(live) = listing.objects.get(&entity.name) else {
            continue;
        };
        if let Some(detail) = &live.unreadable {
            out.unobserved(
                &entity.name,
                unobserved(UnobservedReason::ReadFailed, detail.clone()),
            );
            continue;
        }
        let meta = metadata(live, &request.project);
        if request.owned && meta.ownership() != Ownership::Owned {
            out.unobserved(
                &entity.name,
                unobserved(
                    UnobservedReason::Filtered,
                    format!("present, {}", meta.ownership()),
                ),
            );
            continue;
        }
        out.present(&entity.name, meta);
    }
    for (name, live) in &listing.objects {
        let in_scope = schema_of(name).is_some_and(|s| scope.iter().any(|x| x == s));
        if request.entity(name).is_some() || is_builtin(name) || !in_scope {
            continue;
        }
        let meta = metadata(live, &request.project);
        if request.owned && meta.ownership() != Ownership::Owned {
            continue;
        }
        out.queried(name, format!("{address}#{name}"));
        out.present(name, meta);
    }
    out
}
