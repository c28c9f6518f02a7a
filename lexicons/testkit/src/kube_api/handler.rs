//! One request against the fake cluster: authentication, injected faults, discovery,
//! and the object routes, answered in the apiserver's wire shapes.

use super::resources::{self, Served};
use super::selector::LabelSelector;
use super::{Fault, Logged, State};
use bytes::Bytes;
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// A finished answer.
#[derive(Clone)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Bytes,
}

impl Answer {
    pub fn json(status: u16, body: &Value) -> Self {
        Answer {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: Bytes::from(body.to_string()),
        }
    }
}

/// The `Status` object a real apiserver sends with every error.
pub fn status_body(code: u16, reason: &str, message: &str, details: Option<Value>) -> Value {
    let mut body = json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": reason,
        "code": code,
    });
    if let Some(details) = details {
        body["details"] = details;
    }
    body
}

fn error(code: u16, reason: &str, message: &str) -> Answer {
    Answer::json(code, &status_body(code, reason, message, None))
}

pub struct Request<'a> {
    pub method: &'a str,
    pub path: &'a str,
    pub query: BTreeMap<String, String>,
    pub authorization: Option<&'a str>,
    pub body: &'a [u8],
}

pub fn parse_query(query: &str) -> BTreeMap<String, String> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// Percent-decoding (and `+` as space), enough for selectors and continue tokens.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%' && i + 2 < bytes.len())
            .then(|| Some(hex(bytes[i + 1])? * 16 + hex(bytes[i + 2])?))
            .flatten();
        match (escaped, bytes[i]) {
            (Some(b), _) => {
                out.push(b);
                i += 3;
                continue;
            }
            (None, b'+') => out.push(b' '),
            (None, b) => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(digit: u8) -> Option<u8> {
    (digit as char).to_digit(16).map(|d| d as u8)
}

/// Decide the answer (and how long to hold it) for one request.
pub fn answer(state: &mut State, request: &Request<'_>) -> (Answer, std::time::Duration) {
    let mut delay = state.latency;
    state.log.push(Logged {
        method: request.method.to_owned(),
        path: request.path.to_owned(),
        query: request.query.clone(),
        at: std::time::Instant::now(),
    });
    if let Some(fault) = take_fault(state, request) {
        delay += fault.delay;
        if let Some((code, reason, message)) = &fault.status {
            let mut answer = error(*code, reason, message);
            if let Some(secs) = fault.retry_after {
                answer
                    .headers
                    .push(("retry-after".into(), secs.to_string()));
            }
            return (answer, delay);
        }
    }
    if let Some(expected) = &state.token {
        let presented = request
            .authorization
            .and_then(|h| h.strip_prefix("Bearer "));
        if presented != Some(expected.as_str()) {
            return (error(401, "Unauthorized", "Unauthorized"), delay);
        }
    }
    if request.method != "GET" {
        state.answers.clear();
        return (route(state, request), delay);
    }
    // The same read of the same cluster is the same answer: made once, so that a
    // benchmark's many runs spend the cores on the client, not on this server (a real
    // API server answers LISTs from its watch cache, on a machine of its own).
    let key = format!("{}?{:?}", request.path, request.query);
    if let Some(answer) = state.answers.get(&key) {
        return (answer.clone(), delay);
    }
    let answer = route(state, request);
    state.answers.insert(key, answer.clone());
    (answer, delay)
}

fn take_fault(state: &mut State, request: &Request<'_>) -> Option<Fault> {
    let index = state
        .faults
        .iter()
        .position(|f| f.matches(request.method, request.path))?;
    let fault = state.faults[index].clone();
    if let Some(times) = &mut state.faults[index].times {
        *times -= 1;
        if *times == 0 {
            state.faults.remove(index);
        }
    }
    Some(fault)
}

fn route(state: &mut State, request: &Request<'_>) -> Answer {
    let segments: Vec<&str> = request.path.trim_matches('/').split('/').collect();
    match segments.as_slice() {
        ["version"] => Answer::json(
            200,
            &json!({"major": "1", "minor": "34", "gitVersion": "v1.34.0-chant-fake",
                    "platform": "linux/amd64"}),
        ),
        ["api"] => Answer::json(200, &resources::core_versions()),
        ["apis"] => Answer::json(200, &resources::group_list(&state.served)),
        ["apis", group] => match resources::group(&state.served, group) {
            Some(body) => Answer::json(200, &body),
            None => not_found_path(),
        },
        ["api", version] => discovery(state, "", version),
        ["apis", group, version] => discovery(state, group, version),
        ["api", version, rest @ ..] => objects(state, request, "", version, rest),
        ["apis", group, version, rest @ ..] => objects(state, request, group, version, rest),
        _ => not_found_path(),
    }
}

fn not_found_path() -> Answer {
    error(
        404,
        "NotFound",
        "the server could not find the requested resource",
    )
}

fn discovery(state: &State, group: &str, version: &str) -> Answer {
    match resources::resource_list(&state.served, group, version) {
        Some(body) => Answer::json(200, &body),
        None => not_found_path(),
    }
}

fn objects(
    state: &mut State,
    request: &Request<'_>,
    group: &str,
    version: &str,
    rest: &[&str],
) -> Answer {
    let (namespace, rest) = match rest {
        ["namespaces", ns, tail @ ..] if !tail.is_empty() => (Some(*ns), tail),
        other => (None, other),
    };
    let Some(plural) = rest.first() else {
        return not_found_path();
    };
    let Some(served) = state
        .served
        .iter()
        .find(|s| s.group == group && s.version == version && s.plural == *plural)
        .cloned()
    else {
        return not_found_path();
    };
    if !served.namespaced && namespace.is_some() {
        return not_found_path();
    }
    let namespace = namespace.unwrap_or_default();
    match (request.method, rest) {
        ("GET", [_]) => list(state, &served, namespace, &request.query),
        ("POST", [_]) if served.kind == "SelfSubjectReview" => self_subject_review(state, request),
        ("POST", [_]) => create(state, &served, namespace, request.body),
        ("GET", [_, name]) => match state.store.get(&served, namespace, name) {
            Some(object) => Answer::json(200, &at_version(object.clone(), &served)),
            None => not_found(&served, name),
        },
        ("DELETE", [_, name]) => delete(state, &served, namespace, name, &request.query),
        _ => error(
            405,
            "MethodNotAllowed",
            "the server does not allow this method on the requested resource",
        ),
    }
}

fn not_found(served: &Served, name: &str) -> Answer {
    let qualified = if served.group.is_empty() {
        served.plural.clone()
    } else {
        format!("{}.{}", served.plural, served.group)
    };
    Answer::json(
        404,
        &status_body(
            404,
            "NotFound",
            &format!("{qualified} \"{name}\" not found"),
            Some(json!({"name": name, "group": served.group, "kind": served.plural})),
        ),
    )
}

fn at_version(mut object: Value, served: &Served) -> Value {
    object["apiVersion"] = json!(served.api_version());
    object
}

fn list(
    state: &State,
    served: &Served,
    namespace: &str,
    query: &BTreeMap<String, String>,
) -> Answer {
    let selector = match LabelSelector::parse(query.get("labelSelector").map_or("", String::as_str))
    {
        Ok(s) => s,
        Err(message) => return error(400, "BadRequest", &message),
    };
    let scope = (!namespace.is_empty()).then_some(namespace);
    let matching: Vec<&Value> = state
        .store
        .list(served, scope)
        .into_iter()
        .filter(|o| selector.matches(&labels_of(o)))
        .collect();
    let start = match query.get("continue").filter(|c| !c.is_empty()) {
        None => 0,
        Some(token) => match token
            .strip_prefix("offset-")
            .and_then(|n| n.parse::<usize>().ok())
        {
            Some(n) => n,
            None => return error(400, "BadRequest", "continue key is not valid"),
        },
    };
    let limit = query
        .get("limit")
        .and_then(|l| l.parse::<usize>().ok())
        .filter(|l| *l > 0)
        .unwrap_or(usize::MAX);
    let end = start.saturating_add(limit).min(matching.len());
    let mut metadata = json!({"resourceVersion": state.store.resource_version()});
    if end < matching.len() {
        metadata["continue"] = json!(format!("offset-{end}"));
        metadata["remainingItemCount"] = json!(matching.len() - end);
    }
    let body = ListBody {
        kind: format!("{}List", served.kind),
        api_version: served.api_version(),
        metadata,
        items: matching[start.min(end)..end]
            .iter()
            .map(|o| TypedListItem(o))
            .collect(),
    };
    Answer {
        status: 200,
        headers: vec![("content-type".into(), "application/json".into())],
        body: Bytes::from(serde_json::to_vec(&body).unwrap_or_default()),
    }
}

/// A LIST's answer, written straight from the stored objects (a benchmark lists
/// thousands; the server shares the cores with the client it answers).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListBody<'a> {
    kind: String,
    api_version: String,
    metadata: Value,
    items: Vec<TypedListItem<'a>>,
}

/// An item of a typed list: a real apiserver omits its apiVersion and kind.
struct TypedListItem<'a>(&'a Value);

impl Serialize for TypedListItem<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0.as_object() {
            Some(fields) => serializer.collect_map(
                fields
                    .iter()
                    .filter(|(key, _)| !matches!(key.as_str(), "apiVersion" | "kind")),
            ),
            None => self.0.serialize(serializer),
        }
    }
}

pub fn labels_of(object: &Value) -> BTreeMap<String, String> {
    object["metadata"]["labels"]
        .as_object()
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_owned())))
                .collect()
        })
        .unwrap_or_default()
}

fn create(state: &mut State, served: &Served, namespace: &str, body: &[u8]) -> Answer {
    let Ok(mut object) = serde_json::from_slice::<Value>(body) else {
        return error(
            400,
            "BadRequest",
            "the body of the request was in an unknown format",
        );
    };
    let name = object["metadata"]["name"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    if name.is_empty() {
        return error(
            422,
            "Invalid",
            "metadata.name: Required value: name is required",
        );
    }
    if !namespace.is_empty() {
        object["metadata"]["namespace"] = json!(namespace);
    }
    if state.store.get(served, namespace, &name).is_some() {
        return Answer::json(
            409,
            &status_body(
                409,
                "AlreadyExists",
                &format!("{} \"{name}\" already exists", served.plural),
                Some(json!({"name": name, "group": served.group, "kind": served.plural})),
            ),
        );
    }
    let stored = state.store.put(served, object);
    Answer::json(201, &stored)
}

fn delete(
    state: &mut State,
    served: &Served,
    namespace: &str,
    name: &str,
    query: &BTreeMap<String, String>,
) -> Answer {
    let Some(object) = state.store.get(served, namespace, name).cloned() else {
        return not_found(served, name);
    };
    if query.get("dryRun").map(String::as_str) == Some("All") {
        return Answer::json(200, &object);
    }
    state.store.remove(served, namespace, name);
    state.deleted.push(format!(
        "{}/{}/{}",
        served.plural,
        if namespace.is_empty() { "-" } else { namespace },
        name
    ));
    Answer::json(200, &object)
}

fn self_subject_review(state: &State, request: &Request<'_>) -> Answer {
    let token = request
        .authorization
        .and_then(|h| h.strip_prefix("Bearer "));
    let (username, groups) = token
        .and_then(|t| state.users.get(t).cloned())
        .unwrap_or_else(|| {
            (
                "system:anonymous".to_owned(),
                vec!["system:unauthenticated".to_owned()],
            )
        });
    Answer::json(
        201,
        &json!({
            "kind": "SelfSubjectReview",
            "apiVersion": "authentication.k8s.io/v1",
            "metadata": {"creationTimestamp": null},
            "status": {"userInfo": {"username": username, "groups": groups}},
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_query_values() {
        let q = parse_query("labelSelector=a%3Db%2Cc+in+(x)&limit=5");
        assert_eq!(q["labelSelector"], "a=b,c in (x)");
        assert_eq!(q["limit"], "5");
    }
}
