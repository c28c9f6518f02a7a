//! Secret values in declarations and in the live estate never reach stdout, stderr, JSON or
//! the snapshot branch.

use crate::support::Project;

const SECRETS: [&str; 2] = ["declared-hunter2", "live-s3cret"];

#[test]
fn no_command_prints_or_records_a_secret() {
    let project = Project::shop();
    let commands: [&[&str]; 9] = [
        &["lifecycle", "plan", "dev"],
        &["lifecycle", "plan", "dev", "--json"],
        &["lifecycle", "diff", "dev", "--live"],
        &["lifecycle", "diff", "dev", "--live", "--json"],
        &["lifecycle", "snapshot", "dev", "--deep"],
        &["lifecycle", "show", "dev", "--json"],
        &["lifecycle", "diff", "dev", "--live", "--update-baseline"],
        &["lifecycle", "whoami", "dev", "--json"],
        &["lifecycle", "teardown", "dev", "--json"],
    ];
    for args in commands {
        let run = project.chant(args);
        for secret in SECRETS {
            assert!(
                !run.stdout.contains(secret),
                "{args:?} printed {secret} on stdout"
            );
            assert!(
                !run.stderr.contains(secret),
                "{args:?} printed {secret} on stderr"
            );
        }
    }
    let files = project.lifecycle_files();
    assert!(!files.is_empty());
    for (path, content) in files {
        for secret in SECRETS {
            assert!(
                !content.contains(secret),
                "{path} on chant/lifecycle holds {secret}"
            );
        }
    }
}
