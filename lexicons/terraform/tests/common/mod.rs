//! Shared rig for the terraform lexicon's integration tests: a project in a temp dir, an
//! exec seam that isolates real terraform from the machine, and request builders.
#![allow(dead_code)]

use async_trait::async_trait;
use chant_lexicon::exec::{Command, Exec, ExecError, ExecOutput, SystemExec};
use chant_lexicon::{Lexicon, ObserveRequest, ProjectContext, ProjectMarker};
use chant_terraform::TerraformLexicon;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A project folder with a `chant.toml`.
pub struct Project {
    pub dir: tempfile::TempDir,
}

impl Project {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".home")).unwrap();
        std::fs::write(dir.path().join(".terraformrc"), "").unwrap();
        Project { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn write(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.path().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    pub fn remove(&self, relative: &str) {
        std::fs::remove_file(self.path().join(relative)).unwrap();
    }

    /// The environment every terraform run of this project gets: no user config, no
    /// user home, no checkpoint calls.
    pub fn isolation(&self) -> Vec<(String, String)> {
        vec![
            (
                "HOME".into(),
                self.path().join(".home").display().to_string(),
            ),
            (
                "TF_CLI_CONFIG_FILE".into(),
                self.path().join(".terraformrc").display().to_string(),
            ),
            ("CHECKPOINT_DISABLE".into(), "1".into()),
        ]
    }

    /// Run real terraform in `root` for the test's own setup; panics on failure.
    pub fn terraform(&self, root: &str, args: &[&str]) -> String {
        let output = std::process::Command::new("terraform")
            .args(args)
            .current_dir(self.path().join(root))
            .envs(self.isolation())
            .env_remove("TF_DATA_DIR")
            .env_remove("TF_WORKSPACE")
            .output()
            .expect("terraform is installed (see .ci/install.d/terraform.sh)");
        assert!(
            output.status.success(),
            "terraform {args:?} in {root} failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    pub fn apply(&self, root: &str) {
        self.terraform(root, &["init", "-input=false", "-no-color"]);
        self.terraform(
            root,
            &["apply", "-auto-approve", "-input=false", "-no-color"],
        );
    }

    pub fn context(&self, config: &str) -> ProjectContext {
        self.write("chant.toml", config);
        ProjectContext {
            root: self.path().to_path_buf(),
            config_path: self.path().join("chant.toml"),
            config_text: Arc::from(config),
            stack: "shop".into(),
            environments: vec!["dev".into()],
        }
    }

    /// The lexicon on real processes, isolated like the setup's.
    pub fn real_lexicon(&self, config: &str) -> Arc<dyn Lexicon> {
        let exec = Isolated {
            env: self.isolation(),
        };
        Arc::new(TerraformLexicon::new(&self.context(config), Arc::new(exec)).unwrap())
    }

    pub fn lexicon_with(&self, config: &str, exec: Arc<dyn Exec>) -> Arc<dyn Lexicon> {
        Arc::new(TerraformLexicon::new(&self.context(config), exec).unwrap())
    }
}

/// `SystemExec` with the project's isolation added to every command.
pub struct Isolated {
    pub env: Vec<(String, String)>,
}

#[async_trait]
impl Exec for Isolated {
    async fn run(&self, command: &Command) -> Result<ExecOutput, ExecError> {
        let mut command = command.clone();
        let mut env = self.env.clone();
        env.append(&mut command.env);
        command.env = env;
        SystemExec.run(&command).await
    }
}

pub async fn request(lexicon: &Arc<dyn Lexicon>, owned: bool) -> ObserveRequest {
    let mut request = ObserveRequest::new(
        "dev",
        ProjectMarker::new("shop", "dev"),
        lexicon.declared().await.unwrap(),
    );
    request.owned = owned;
    request
}

/// A port nothing listens on.
pub fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}
