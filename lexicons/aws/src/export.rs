//! `export_resources`: the deployed template (GetTemplate, stage Original) of each of the
//! environment's stacks, as the import IR; and the generator writing it back as a
//! CloudFormation template this lexicon's declared reader reads under the same names.

use crate::lexicon::{AwsLexicon, Unbound, unbound_error};
use crate::ownership::{marker_in_pairs, marker_in_tag_array};
use crate::stack;
use crate::template::{Template, write_template};
use chant_lexicon::export::{IrResource, TemplateIr};
use chant_lexicon::{ExportRequest, ExportedTemplate, GeneratedFile, HookError, HookResult};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

pub async fn export(lexicon: &AwsLexicon, request: &ExportRequest) -> HookResult<ExportedTemplate> {
    let mut resources = Vec::new();
    for target in lexicon.targets(&request.environment, request.stack.as_deref()) {
        let session = lexicon
            .bind(
                &request.environment,
                Some(&target),
                request.region.as_deref(),
                std::time::Duration::from_secs(60),
            )
            .await
            .map_err(|e| match e {
                Unbound::Hole(h) => HookError::Failed(format!(
                    "cannot export stack \"{}\": {}",
                    target.name, h.detail
                )),
                refused => unbound_error(refused),
            })?;
        let body = match stack::original_template(&session, &target.name).await {
            Ok(body) => body,
            Err(f) if f.is_missing_stack() => continue,
            Err(f) => {
                return Err(HookError::Failed(format!(
                    "failed to get the template of stack \"{}\": {}",
                    target.name, f.detail
                )));
            }
        };
        let stack_marker = match stack::info(&session, &target.name).await {
            Ok(info) => marker_in_pairs(info.tags.iter().map(|(k, v)| (k.as_str(), v.as_str()))),
            Err(_) => None,
        };
        let template = Template::parse(Path::new(&format!("{}.template", target.name)), body)
            .map_err(|d| {
                HookError::Failed(format!(
                    "stack \"{}\" holds a template this lexicon cannot read: {}",
                    target.name, d.message
                ))
            })?;
        for (id, resource) in template.resources() {
            let entity_type = resource["Type"].as_str().unwrap_or_default();
            if !request.selector.accepts(entity_type, id) {
                continue;
            }
            let properties = resource
                .get("Properties")
                .cloned()
                .unwrap_or_else(|| Value::Object(Map::new()));
            if request.owned {
                let marker = properties
                    .get("Tags")
                    .and_then(marker_in_tag_array)
                    .or_else(|| stack_marker.clone());
                if !marker.as_ref().is_some_and(|m| request.project.matches(m)) {
                    continue;
                }
            }
            resources.push(IrResource {
                logical_id: id.clone(),
                entity_type: entity_type.to_owned(),
                properties,
                metadata: Some(serde_json::json!({"stack": target.name})),
            });
        }
    }
    Ok(ExportedTemplate::new(
        crate::NAME,
        TemplateIr {
            resources,
            ..Default::default()
        },
    ))
}

pub fn generate(exported: &ExportedTemplate) -> Vec<GeneratedFile> {
    let resources: Vec<(String, String, Value)> = exported
        .ir()
        .resources
        .iter()
        .map(|r| {
            (
                r.logical_id.clone(),
                r.entity_type.clone(),
                r.properties.clone(),
            )
        })
        .collect();
    vec![GeneratedFile {
        path: PathBuf::from("template.json"),
        content: write_template(&resources),
    }]
}
