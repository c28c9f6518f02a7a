//! The declared side: Kubernetes build output (multi-document YAML files, directories,
//! globs) and kustomize roots rendered through `kubectl kustomize` on the exec seam.

use crate::kinds::{entity_type, split_api_version};
use crate::naming::{self, Nameable};
use crate::yaml::{Chunk, Document, DocumentError, chunks, parse_documents};
use chant_lexicon::exec::{Command, Exec};
use chant_lexicon::parallel::map_on_every_core;
use chant_lexicon::{DeclaredEntity, SourceDiagnostic};
use rustc_hash::FxHashSet;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where declared objects come from.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    /// The directory relative entries resolve against.
    pub root: PathBuf,
    /// Files, directories and globs, as written in chant.toml.
    pub entries: Vec<String>,
    pub kustomize: Vec<String>,
}

/// One object and where it was declared.
struct Found {
    object: Value,
    origin: PathBuf,
}

/// Every declared object; each is also handed to `parsed` as soon as it is parsed, on
/// whichever thread parsed it.
pub async fn read_declared(
    sources: &Sources,
    exec: &dyn Exec,
    parsed: &(dyn Fn(&Value) + Sync),
) -> Result<Vec<DeclaredEntity>, SourceDiagnostic> {
    let mut files = Vec::new();
    for file in expand(sources)? {
        let text = std::fs::read_to_string(&file).map_err(|e| {
            SourceDiagnostic::new(&file, format!("cannot read {}: {e}", file.display()))
        })?;
        files.push((file, text));
    }
    let mut found = Vec::new();
    for objects in parse_files(&files, parsed) {
        found.extend(objects?);
    }
    for root in &sources.kustomize {
        let dir = sources.root.join(root);
        let text = render_kustomize(&dir, exec).await?;
        let objects = objects_of(&dir, &text)?;
        for f in &objects {
            parsed(&f.object);
        }
        found.extend(objects);
    }
    name_entities(found)
}

/// Every file an entry names: a file as is, a directory's YAML files (recursively, in
/// path order), a glob's matches. An entry that names nothing is a diagnostic.
fn expand(sources: &Sources) -> Result<Vec<PathBuf>, SourceDiagnostic> {
    let mut files = Vec::new();
    for entry in &sources.entries {
        let path = sources.root.join(entry);
        if entry.contains(['*', '?', '[']) {
            let pattern = path.to_string_lossy().into_owned();
            let matched: Vec<PathBuf> = glob::glob(&pattern)
                .map_err(|e| SourceDiagnostic::new(&path, format!("bad glob `{entry}`: {e}")))?
                .filter_map(Result::ok)
                .filter(|p| p.is_file())
                .collect();
            if matched.is_empty() {
                return Err(SourceDiagnostic::new(
                    &path,
                    format!("the source `{entry}` matches no file"),
                )
                .help("[lexicons.k8s] source names build output; run the build first"));
            }
            files.extend(matched);
        } else if path.is_dir() {
            let mut found = Vec::new();
            walk(&path, &mut found);
            found.sort();
            files.extend(found);
        } else if path.is_file() {
            files.push(path);
        } else {
            return Err(SourceDiagnostic::new(
                &path,
                format!("the source `{entry}` does not exist"),
            )
            .help("[lexicons.k8s] source names build output; run the build first"));
        }
    }
    Ok(files)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| matches!(e, "yaml" | "yml" | "json"))
        {
            out.push(path);
        }
    }
}

async fn render_kustomize(dir: &Path, exec: &dyn Exec) -> Result<String, SourceDiagnostic> {
    let has_kustomization = ["kustomization.yaml", "kustomization.yml", "Kustomization"]
        .iter()
        .any(|f| dir.join(f).is_file());
    if !has_kustomization {
        return Err(SourceDiagnostic::new(
            dir,
            format!("{} holds no kustomization file", dir.display()),
        ));
    }
    let command = Command::new("kubectl")
        .arg("kustomize")
        .arg(dir.to_string_lossy())
        .timeout(Duration::from_secs(120));
    let output = exec.run(&command).await.map_err(|e| {
        SourceDiagnostic::new(dir, format!("cannot render the kustomize root: {e}"))
    })?;
    if !output.success() {
        let first = output
            .stderr
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("no output");
        return Err(SourceDiagnostic::new(
            dir,
            format!("`{}` failed: {first}", command.line()),
        ));
    }
    Ok(output.stdout)
}

/// Parse the files' documents on every core (YAML parsing is the declared side's whole
/// cost), keeping their order; a file's first bad document is its error.
fn parse_files(
    files: &[(PathBuf, String)],
    parsed: &(dyn Fn(&Value) + Sync),
) -> Vec<Result<Vec<Found>, SourceDiagnostic>> {
    let chunks: Vec<(usize, Chunk<'_>)> = files
        .iter()
        .enumerate()
        .flat_map(|(i, (_, text))| chunks(text).into_iter().map(move |c| (i, c)))
        .collect();
    let mut parsed_chunks = map_on_every_core(
        &chunks,
        || (),
        |_, (_, chunk)| {
            let document = chunk.parse();
            if let Ok(Some(document)) = &document {
                for object in list_items(&document.value) {
                    parsed(object);
                }
            }
            document
        },
    )
    .into_iter();
    let mut chunk_files = chunks.iter().map(|(i, _)| *i).peekable();
    files
        .iter()
        .enumerate()
        .map(|(i, (file, text))| {
            let mut documents = Vec::new();
            let mut failed = None;
            while chunk_files.next_if_eq(&i).is_some() {
                match parsed_chunks.next().expect("one result per chunk") {
                    Ok(document) => documents.extend(document),
                    Err(e) => {
                        failed.get_or_insert(e);
                    }
                }
            }
            match failed {
                Some(e) => Err(invalid_yaml(file, text, e)),
                None => objects_from(file, text, documents),
            }
        })
        .collect()
}

/// The objects of one file (a `List` document contributes its items).
fn objects_of(file: &Path, text: &str) -> Result<Vec<Found>, SourceDiagnostic> {
    let documents = parse_documents(text).map_err(|e| invalid_yaml(file, text, e))?;
    objects_from(file, text, documents)
}

fn invalid_yaml(file: &Path, text: &str, e: DocumentError) -> SourceDiagnostic {
    SourceDiagnostic::new(
        file,
        format!("document {} is not valid YAML: {}", e.index + 1, e.message),
    )
    .at_line(text, e.line, None)
    .label("here")
}

fn objects_from(
    file: &Path,
    text: &str,
    documents: Vec<Document>,
) -> Result<Vec<Found>, SourceDiagnostic> {
    let mut out = Vec::new();
    for mut doc in documents {
        let list = is_list(&doc.value);
        let items = match doc.value.get_mut("items") {
            Some(Value::Array(items)) if list => std::mem::take(items),
            _ => vec![doc.value],
        };
        for object in items {
            if let Some(problem) = missing_field(&object) {
                return Err(SourceDiagnostic::new(
                    file,
                    format!("document {} has no {problem}", doc.index + 1),
                )
                .at_line(text, doc.line, None)
                .label("this document")
                .help("every Kubernetes object needs apiVersion, kind and metadata.name"));
            }
            out.push(Found {
                object,
                origin: file.to_path_buf(),
            });
        }
    }
    Ok(out)
}

/// The objects a document declares: a `List`'s items, else the document itself.
fn list_items(document: &Value) -> &[Value] {
    match &document["items"] {
        Value::Array(items) if is_list(document) => items,
        _ => std::slice::from_ref(document),
    }
}

fn is_list(value: &Value) -> bool {
    value["kind"]
        .as_str()
        .is_some_and(|k| k == "List" || k.ends_with("List"))
}

fn missing_field(object: &Value) -> Option<&'static str> {
    let nonempty = |v: &Value| v.as_str().is_some_and(|s| !s.is_empty());
    if !object.is_object() {
        Some("object (it is not a mapping)")
    } else if !nonempty(&object["apiVersion"]) {
        Some("apiVersion")
    } else if !nonempty(&object["kind"]) {
        Some("kind")
    } else if !nonempty(&object["metadata"]["name"]) {
        Some("metadata.name")
    } else {
        None
    }
}

fn name_entities(found: Vec<Found>) -> Result<Vec<DeclaredEntity>, SourceDiagnostic> {
    // Each object's own part (its base name and type) on every core; only settling the
    // collisions needs them all.
    let objects: Vec<&Found> = found.iter().collect();
    let (bases, types): (Vec<_>, Vec<_>) = map_on_every_core(
        &objects,
        || (),
        |(), &f| (Nameable::of(&f.object).base(), type_of(&f.object)),
    )
    .into_iter()
    .unzip();
    let names = naming::settle(&bases, &BTreeSet::new());
    let mut seen = FxHashSet::default();
    if let Some(twice) = names.iter().position(|name| !seen.insert(name.as_str())) {
        return Err(SourceDiagnostic::new(
            &found[twice].origin,
            format!(
                "two objects carry the entity name `{}` ({})",
                names[twice],
                naming::ENTITY_ANNOTATION
            ),
        ));
    }
    Ok(found
        .into_iter()
        .zip(names.into_iter().zip(types))
        .map(|(f, (name, entity_type))| {
            DeclaredEntity::new(name, entity_type, f.object).from_file(f.origin)
        })
        .collect())
}

fn type_of(object: &Value) -> String {
    let (group, _) = split_api_version(object["apiVersion"].as_str().unwrap_or_default());
    entity_type(group, object["kind"].as_str().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chant_lexicon::exec::{ExecError, ExecOutput};

    struct NoExec;

    #[async_trait::async_trait]
    impl Exec for NoExec {
        async fn run(&self, command: &Command) -> Result<ExecOutput, ExecError> {
            Err(ExecError::NotFound(command.program.clone()))
        }
    }

    fn sources(dir: &Path, entries: &[&str]) -> Sources {
        Sources {
            root: dir.to_path_buf(),
            entries: entries.iter().map(|e| (*e).to_owned()).collect(),
            kustomize: Vec::new(),
        }
    }

    const APP: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: my-app\n  namespace: shop\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: my-app\n";

    #[tokio::test]
    async fn reads_files_directories_and_globs() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("dist/extra")).unwrap();
        std::fs::write(dir.path().join("dist/app.yaml"), APP).unwrap();
        std::fs::write(
            dir.path().join("dist/extra/cm.yml"),
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  annotations:\n    chant.intentius.io/entity: appSettings\n",
        )
        .unwrap();
        let by_glob = read_declared(&sources(dir.path(), &["dist/*.yaml"]), &NoExec, &|_| {})
            .await
            .unwrap();
        let names: Vec<&str> = by_glob.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["deploymentMyApp", "serviceMyApp"]);
        assert_eq!(by_glob[0].entity_type, "K8s::Apps::Deployment");
        assert_eq!(by_glob[1].entity_type, "K8s::Core::Service");
        let by_dir = read_declared(&sources(dir.path(), &["dist"]), &NoExec, &|_| {})
            .await
            .unwrap();
        assert_eq!(by_dir.len(), 3);
        assert!(by_dir.iter().any(|e| e.name == "appSettings"));
    }

    #[tokio::test]
    async fn a_document_without_a_name_names_the_file_document_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let text =
            format!("{APP}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels: {{}}\n");
        std::fs::write(dir.path().join("bad.yaml"), &text).unwrap();
        let err = read_declared(&sources(dir.path(), &["bad.yaml"]), &NoExec, &|_| {})
            .await
            .unwrap_err();
        assert!(err.file.ends_with("bad.yaml"));
        assert_eq!(err.message, "document 3 has no metadata.name");
        assert_eq!(err.line_in(&text), Some(12));
    }

    #[tokio::test]
    async fn bad_yaml_and_missing_sources_are_diagnostics() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bad.yaml"), "kind: [unclosed\n").unwrap();
        let err = read_declared(&sources(dir.path(), &["bad.yaml"]), &NoExec, &|_| {})
            .await
            .unwrap_err();
        assert!(
            err.message.starts_with("document 1 is not valid YAML"),
            "{}",
            err.message
        );
        let err = read_declared(&sources(dir.path(), &["nope/*.yaml"]), &NoExec, &|_| {})
            .await
            .unwrap_err();
        assert!(err.message.contains("matches no file"));
        let err = read_declared(&sources(dir.path(), &["gone.yaml"]), &NoExec, &|_| {})
            .await
            .unwrap_err();
        assert!(err.message.contains("does not exist"));
    }

    #[tokio::test]
    async fn collisions_get_the_namespace() {
        let dir = tempfile::tempdir().unwrap();
        let text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: x}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: blue}\n";
        std::fs::write(dir.path().join("c.yaml"), text).unwrap();
        let names: Vec<String> = read_declared(&sources(dir.path(), &["c.yaml"]), &NoExec, &|_| {})
            .await
            .unwrap()
            .into_iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(names, ["configMapA.x", "configMapA.blue"]);
    }
}
