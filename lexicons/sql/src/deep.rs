//! `observe_resources_deep`: each object's definition tree, in the declared shape, and the
//! normalization hooks (as data) that make an unchanged object compare equal.

use crate::describe::is_builtin;
use crate::names::{Kind, schema_of};
use crate::session::{Definitions, Fault};
use chant_lexicon::deep::TypeMatch;
use chant_lexicon::{
    DeepObservation, DeepResourceObservation, NormalizationHooks, ObserveRequest, Ownership,
    UnobservedEntity, UnobservedReason,
};
use serde_json::{Value, json};

/// Server defaults, subtracted where the declaration does not say; constraint sets keyed by
/// name; column order significant (no order key).
pub fn hooks() -> NormalizationHooks {
    let sequence = || TypeMatch::of(&["SQL::Sequence"]);
    let mut hooks = NormalizationHooks::default()
        .order_by(TypeMatch::of(&["SQL::Table"]), "constraints", &["name"])
        .default_value(sequence(), "type", json!("bigint"))
        .default_value(sequence(), "increment", json!(1))
        .default_value(sequence(), "start", json!(1))
        .default_value(sequence(), "min", json!(1))
        .default_value(sequence(), "cache", json!(1))
        .default_value(sequence(), "cycle", json!(false))
        .default_value(TypeMatch::of(&["SQL::Index"]), "method", json!("btree"))
        .default_value(
            TypeMatch::of(&["SQL::Function"]),
            "volatility",
            json!("volatile"),
        );
    for max in [i64::MAX, i64::from(i32::MAX), i64::from(i16::MAX)] {
        hooks = hooks.default_value(sequence(), "max", json!(max));
    }
    hooks
}

pub fn unbound(request: &ObserveRequest, fault: &Fault) -> DeepObservation {
    let mut out = DeepObservation::default();
    for entity in request.entities.iter() {
        out.unobserved.insert(
            entity.name.clone(),
            UnobservedEntity::new(fault.reason)
                .typed(&entity.entity_type)
                .detail(fault.detail.clone()),
        );
    }
    out
}

pub fn observation(
    definitions: &Definitions,
    request: &ObserveRequest,
    scope: &[String],
) -> DeepObservation {
    let mut out = DeepObservation::default();
    let mut hole = |name: &str, entity_type: &str, reason, detail: String| {
        out.unobserved.insert(
            name.to_owned(),
            UnobservedEntity::new(reason)
                .typed(entity_type)
                .detail(detail),
        );
    };
    for entity in request.entities.iter() {
        match Kind::from_entity_type(&entity.entity_type) {
            None => hole(
                &entity.name,
                &entity.entity_type,
                UnobservedReason::UnsupportedKind,
                format!("the sql lexicon has no reader for {}", entity.entity_type),
            ),
            Some(kind) => {
                if let Some(detail) = definitions.failed.get(&kind) {
                    hole(
                        &entity.name,
                        &entity.entity_type,
                        UnobservedReason::ReadFailed,
                        detail.clone(),
                    );
                } else if let Some(Err(detail)) = definitions.objects.get(&entity.name) {
                    hole(
                        &entity.name,
                        &entity.entity_type,
                        UnobservedReason::ReadFailed,
                        detail.clone(),
                    );
                }
            }
        }
    }
    for (name, object) in &definitions.objects {
        let Ok(object) = object else { continue };
        let declared = request.entity(name).is_some();
        let in_scope = schema_of(name).is_some_and(|s| scope.iter().any(|x| x == s));
        if !declared && (is_builtin(name) || !in_scope) {
            continue;
        }
        let ownership = request.project.classify(object.marker.as_ref());
        if request.owned && ownership != Ownership::Owned {
            if declared {
                hole(
                    name,
                    object.kind().entity_type(),
                    UnobservedReason::Filtered,
                    format!("present, {ownership}"),
                );
            }
            continue;
        }
        let physical_id = definitions
            .statuses
            .get(name)
            .and_then(|(_, id)| id.clone());
        out.resources.insert(
            name.clone(),
            DeepResourceObservation {
                entity_type: object.kind().entity_type().to_owned(),
                physical_id,
                properties: Value::Object(object.props.clone()),
                field_owners: Default::default(),
                ownership: Some(ownership),
                marker: object.marker.clone(),
            },
        );
    }
    out
}
