//! `export_resources` and the generator: live definitions → one DDL file per schema that
//! `declared()` reads back under the same entity names (import → plan is all `noop`).

use crate::deep::hooks;
use crate::describe::is_builtin;
use crate::dialect::Dialect;
use crate::names::{Kind, ObjectKey, parse_entity_name, schema_of};
use crate::session::Definitions;
use crate::writer::render;
use chant_lexicon::deep::{Counterpart, DeepNode, Side};
use chant_lexicon::export::{IrResource, TemplateIr};
use chant_lexicon::{ExportRequest, ExportedTemplate, GeneratedFile, OwnershipMarker};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Drop top-level values that are the server's own default (kept under `--verbatim`).
fn strip_defaults(entity_type: &str, props: &mut Map<String, Value>) {
    let hooks = hooks();
    props.retain(|key, value| {
        let node = DeepNode {
            entity_type,
            path: key,
            pattern: key,
            key,
            value,
            side: Side::Live,
            counterpart: Counterpart::Absent,
        };
        !hooks.prunes(&node)
    });
}

pub fn template(
    definitions: &Definitions,
    request: &ExportRequest,
    scope: &[String],
) -> TemplateIr {
    let mut resources = Vec::new();
    for (name, object) in &definitions.objects {
        let Ok(object) = object else { continue };
        let in_scope = schema_of(name).is_some_and(|s| scope.iter().any(|x| x == s));
        if is_builtin(name) || !in_scope || !object.kind().is_supported() {
            continue;
        }
        let entity_type = object.kind().entity_type();
        if !request.selector.accepts(entity_type, name) {
            continue;
        }
        let owned = object
            .marker
            .as_ref()
            .is_some_and(|m| request.project.matches(m));
        if request.owned && !owned {
            continue;
        }
        let mut props = object.props.clone();
        if !request.verbatim {
            strip_defaults(entity_type, &mut props);
        }
        let mut metadata = json!({"owned": owned});
        if let Some(marker) = &object.marker {
            metadata["marker"] = serde_json::to_value(marker).unwrap_or(Value::Null);
        }
        resources.push(IrResource {
            logical_id: name.clone(),
            entity_type: entity_type.to_owned(),
            properties: Value::Object(props),
            metadata: Some(metadata),
        });
    }
    TemplateIr {
        resources,
        ..TemplateIr::default()
    }
}

fn creation_rank(kind: Kind) -> usize {
    Kind::READ
        .iter()
        .position(|k| *k == kind)
        .unwrap_or(usize::MAX)
}

/// Objects a table's foreign keys or a view's query need, written first.
fn needs(props: &Map<String, Value>, key: &ObjectKey, dialect: Dialect) -> Vec<String> {
    let mut out = Vec::new();
    let reference = |name: &str| {
        let (schema, table) = name
            .split_once('.')
            .unwrap_or((dialect.default_schema(), name));
        ObjectKey::new(Kind::Table, schema, table).entity_name()
    };
    if key.kind == Kind::Table {
        for c in props
            .get("constraints")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(target) = c.get("references").and_then(Value::as_str) {
                out.push(reference(target));
            }
        }
    }
    out
}

pub fn generate(template: &ExportedTemplate, dialect: Dialect) -> Vec<GeneratedFile> {
    struct Item<'a> {
        key: ObjectKey,
        props: &'a Map<String, Value>,
        marker: Option<OwnershipMarker>,
    }
    let mut by_schema: BTreeMap<String, Vec<Item<'_>>> = BTreeMap::new();
    for resource in &template.ir().resources {
        let Some(key) = parse_entity_name(&resource.logical_id, &resource.entity_type) else {
            continue;
        };
        let Some(props) = resource.properties.as_object() else {
            continue;
        };
        let meta = resource.metadata.as_ref();
        let owned = meta.and_then(|m| m.get("owned")).and_then(Value::as_bool) == Some(true);
        let marker = meta
            .and_then(|m| m.get("marker"))
            .filter(|_| owned)
            .and_then(|m| serde_json::from_value(m.clone()).ok());
        by_schema
            .entry(key.schema.clone())
            .or_default()
            .push(Item { key, props, marker });
    }
    by_schema
        .into_iter()
        .map(|(schema, mut items)| {
            items.sort_by(|a, b| {
                (creation_rank(a.key.kind), &a.key.name)
                    .cmp(&(creation_rank(b.key.kind), &b.key.name))
            });
            // Tables whose foreign keys point at a table later in the file move after it.
            let mut ordered: Vec<Item<'_>> = Vec::new();
            let mut pending = items;
            while !pending.is_empty() {
                let written: Vec<String> = ordered.iter().map(|i| i.key.entity_name()).collect();
                let in_file: Vec<String> = pending.iter().map(|i| i.key.entity_name()).collect();
                let ready = pending.iter().position(|item| {
                    needs(item.props, &item.key, dialect).iter().all(|n| {
                        written.contains(n) || !in_file.contains(n) || *n == item.key.entity_name()
                    })
                });
                ordered.push(pending.remove(ready.unwrap_or(0)));
            }
            let mut content =
                format!("-- Generated by chant import from the live {schema} schema.\n\n");
            for item in &ordered {
                content.push_str(&render(
                    &item.key,
                    item.props,
                    item.marker.as_ref(),
                    dialect,
                ));
                content.push('\n');
            }
            GeneratedFile {
                path: PathBuf::from(format!("{schema}.sql")),
                content,
            }
        })
        .collect()
}
