//! Cloud Control reads: one resource's full model by type and primary identifier.

use crate::errors::{Failure, classify};
use crate::schema;
use crate::session::{Service, Session};
use chant_lexicon::UnobservedReason;
use serde_json::Value;

/// What GetResource answered.
#[derive(Debug)]
pub enum Lookup {
    Found {
        identifier: String,
        properties: Value,
    },
    NotFound,
}

pub fn address(session: &Session, entity_type: &str, identifier: &str) -> String {
    session.address(
        Service::CloudControl,
        &format!("GetResource(TypeName={entity_type}, Identifier={identifier})"),
    )
}

/// `client` is made once per read ([`Session::cloudcontrol`]) and shared by its lookups.
pub async fn get(
    client: &aws_sdk_cloudcontrol::Client,
    entity_type: &str,
    identifier: &str,
) -> Result<Lookup, Failure> {
    let answer = client
        .get_resource()
        .type_name(entity_type)
        .identifier(identifier)
        .send()
        .await;
    let answer = match answer {
        Ok(answer) => answer,
        Err(error) => {
            let failure = classify(&error);
            return if failure.is_not_found() {
                Ok(Lookup::NotFound)
            } else {
                Err(failure)
            };
        }
    };
    let Some(description) = answer.resource_description() else {
        return Ok(Lookup::NotFound);
    };
    let text = description.properties().unwrap_or("{}");
    let properties: Value = serde_json::from_str(text).map_err(|_| {
        Failure::new(
            UnobservedReason::ReadFailed,
            format!("unparseable GetResource response for {entity_type} \"{identifier}\""),
        )
    })?;
    Ok(Lookup::Found {
        identifier: description.identifier().unwrap_or(identifier).to_owned(),
        properties,
    })
}

/// The primary identifier of a declared resource, when every part is a literal in its
/// props (`BucketName: shop-assets` → `shop-assets`; parts joined by `|`).
pub fn declared_identifier(entity_type: &str, props: &Value) -> Option<String> {
    let facts = schema::facts(entity_type)?;
    if facts.primary_identifier.is_empty() {
        return None;
    }
    let parts: Option<Vec<String>> = facts
        .primary_identifier
        .iter()
        .map(|path| {
            let value = path.split('.').try_fold(props, |v, k| v.get(k))?;
            match value {
                Value::String(s) if !s.is_empty() => Some(s.clone()),
                Value::Number(n) => Some(n.to_string()),
                _ => None,
            }
        })
        .collect();
    parts.map(|p| p.join("|"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn identifiers_come_only_from_literal_primary_identifier_props() {
        assert_eq!(
            declared_identifier("AWS::S3::Bucket", &json!({"BucketName": "assets"})).as_deref(),
            Some("assets")
        );
        assert_eq!(declared_identifier("AWS::S3::Bucket", &json!({})), None);
        assert_eq!(
            declared_identifier(
                "AWS::S3::Bucket",
                &json!({"BucketName": {"Fn::Sub": "${AWS::StackName}-a"}})
            ),
            None
        );
        // A queue's identifier is its URL, which no declaration states.
        assert_eq!(
            declared_identifier("AWS::SQS::Queue", &json!({"QueueName": "q"})),
            None
        );
        assert_eq!(
            declared_identifier("Custom::X", &json!({"Name": "q"})),
            None
        );
    }
}
