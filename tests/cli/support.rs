//! A throwaway copy of a fixture project (a git repository), the real binary run inside
//! it with a pinned environment, and insta settings that hide what changes run to run.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

pub struct Project {
    dir: tempfile::TempDir,
}

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// stdout, stderr and the exit code, as one reviewable text.
    pub fn transcript(&self) -> String {
        format!(
            "exit: {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.stdout))
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

impl Project {
    /// The `shop` fixture, committed to a fresh repository.
    pub fn shop() -> Project {
        Project::fixture("shop")
    }

    /// An empty project folder; its repository is made by the first `commit_all`.
    pub fn empty() -> Project {
        Project {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn fixture(name: &str) -> Project {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures")
                .join(name),
            dir.path(),
        );
        let project = Project { dir };
        project.commit_all("fixture");
        project
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn file(&self, relative: &str) -> PathBuf {
        self.path().join(relative)
    }

    pub fn write(&self, relative: &str, content: &str) {
        let path = self.file(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    pub fn read(&self, relative: &str) -> String {
        std::fs::read_to_string(self.file(relative)).unwrap()
    }

    /// Commit the work tree to the project's own branch (not the snapshot branch).
    pub fn commit_all(&self, message: &str) {
        let repo = git2::Repository::open(self.path())
            .unwrap_or_else(|_| git2::Repository::init(self.path()).unwrap());
        let mut index = repo.index().unwrap();
        index
            .add_all(["*"], git2::IndexAddOption::DEFAULT, None)
            .unwrap();
        index.write().unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        let signature = git2::Signature::now("test", "test@example.invalid").unwrap();
        let parent = repo.head().ok().and_then(|h| h.peel_to_commit().ok());
        let parents: Vec<&git2::Commit> = parent.iter().collect();
        repo.commit(
            Some("HEAD"),
            &signature,
            &signature,
            message,
            &tree,
            &parents,
        )
        .unwrap();
    }

    /// The files on the chant/lifecycle branch, with their contents.
    pub fn lifecycle_files(&self) -> Vec<(String, String)> {
        let repo = git2::Repository::open(self.path()).unwrap();
        let Ok(reference) = repo.find_reference("refs/heads/chant/lifecycle") else {
            return Vec::new();
        };
        let tree = reference.peel_to_tree().unwrap();
        let mut files = Vec::new();
        tree.walk(git2::TreeWalkMode::PreOrder, |dir, entry| {
            if let Ok(blob) = entry.to_object(&repo).and_then(|o| o.peel_to_blob()) {
                files.push((
                    format!("{dir}{}", entry.name().unwrap_or_default()),
                    String::from_utf8_lossy(blob.content()).into_owned(),
                ));
            }
            git2::TreeWalkResult::Ok
        })
        .unwrap();
        files
    }

    /// Run `chant -C <project> <args…>` with a pinned environment.
    pub fn chant(&self, args: &[&str]) -> Run {
        run_chant(Some(self.path()), args)
    }

    /// The same, with `variables` added to the pinned environment.
    pub fn chant_with(&self, args: &[&str], variables: &[(&str, &str)]) -> Run {
        run_chant_with(Some(self.path()), args, variables)
    }
}

pub fn run_chant(project: Option<&Path>, args: &[&str]) -> Run {
    run_chant_with(project, args, &[])
}

pub fn run_chant_with(project: Option<&Path>, args: &[&str], variables: &[(&str, &str)]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_chant"));
    command
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("NO_COLOR", "1")
        .env("COLUMNS", "120")
        .envs(variables.iter().copied());
    if let Some(dir) = project {
        command.env("HOME", dir).current_dir(dir).arg("-C").arg(dir);
    }
    let output = command.args(args).output().expect("the chant binary runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// `lifecycle predict dev` at 100 rps, human and JSON.
pub const PREDICT: &[&str] = &["lifecycle", "predict", "dev", "--traffic", "100 rps"];
pub const PREDICT_JSON: &[&str] = &[
    "lifecycle",
    "predict",
    "dev",
    "--traffic",
    "100 rps",
    "--json",
];

/// [`PREDICT_JSON`] with `variables`, checked to exit 0
/// with an answered report for one lexicon: the whole report, and that lexicon's
/// `declared` side.
pub fn predict_declared(
    project: &Project,
    lexicon: &str,
    variables: &[(&str, &str)],
) -> (serde_json::Value, serde_json::Value) {
    let run = project.chant_with(PREDICT_JSON, variables);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let report = run.json();
    assert_eq!(report["schema"], "chant.predict/v1");
    let side = &report["lexicons"][0];
    assert_eq!(side["lexicon"], lexicon);
    let declared = side["declared"].clone();
    assert_eq!(declared["state"], "answered", "{declared}");
    assert_eq!(declared["outcome"], "report", "{declared}");
    (report, declared)
}

/// The keys of `declared[field]` (an object, or nothing), sorted.
pub fn sorted_keys<'a>(declared: &'a serde_json::Value, field: &str) -> Vec<&'a str> {
    let mut keys: Vec<&str> = declared[field]
        .as_object()
        .map(|map| map.keys().map(String::as_str).collect())
        .unwrap_or_default();
    keys.sort_unstable();
    keys
}

/// Every unpredicted entity of a predicted side is an `unsupported-kind` hole whose type
/// starts with `type_prefix`.
pub fn assert_unsupported_kinds(declared: &serde_json::Value, type_prefix: &str) {
    let unpredicted = declared["unpredicted"].as_object().unwrap();
    for (name, hole) in unpredicted {
        assert_eq!(hole["reason"], "unsupported-kind", "{name}");
        assert!(
            hole["type"].as_str().unwrap().starts_with(type_prefix),
            "{name}"
        );
    }
}

/// A predicted side's edge coverage: complete, from the declaration, `edges` edges, and
/// one dangling reference, `value` from `from`.
pub fn assert_declared_edges(declared: &serde_json::Value, edges: u64, from: &str, value: &str) {
    let coverage = &declared["meta"]["edgeCoverage"];
    assert_eq!(coverage["verdict"], "complete", "{coverage}");
    assert_eq!(coverage["origin"], "declared", "{coverage}");
    assert_eq!(coverage["edges"], edges, "{coverage}");
    let dangling = coverage["dangling"].as_array().unwrap();
    assert_eq!(dangling.len(), 1, "{coverage}");
    assert_eq!(dangling[0]["from"], from);
    assert_eq!(dangling[0]["value"], value);
}

/// Snapshot `text` into `snapshots/`, with the project's path, timestamps and commit ids
/// replaced by placeholders.
pub fn snapshot(name: &str, project: &Project, text: &str) {
    snapshot_filtered(name, project.path(), text, &[]);
}

/// The same for a project at `root`, with `extra` (regex, replacement) filters after the
/// shared ones.
pub fn snapshot_filtered(name: &str, root: &Path, text: &str, extra: &[(&str, &str)]) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.add_filter(&regex_escape(&root.display().to_string()), "[PROJECT]");
    settings.add_filter(
        r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})",
        "[TIMESTAMP]",
    );
    settings.add_filter(r"\b[0-9a-f]{40}\b", "[COMMIT]");
    settings.add_filter(
        r"(?m)^[0-9a-f]{7}  \d{4}-\d{2}-\d{2}  ",
        "[SHORT]  [DATE]  ",
    );
    for (pattern, replacement) in extra {
        settings.add_filter(pattern, *replacement);
    }
    settings.bind(|| insta::assert_snapshot!(name, text));
}

fn regex_escape(text: &str) -> String {
    text.chars()
        .map(|c| {
            if "\\.+*?()|[]{}^$".contains(c) {
                format!("\\{c}")
            } else {
                c.to_string()
            }
        })
        .collect()
}
