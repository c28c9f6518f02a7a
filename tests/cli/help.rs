use crate::support::run_chant;
use clap_complete::Shell;

#[test]
fn help_lists_every_command() {
    let top = run_chant(None, &["--help"]);
    for command in ["lifecycle", "import", "completions"] {
        assert!(
            top.stdout.contains(command),
            "chant --help lacks {command}:\n{}",
            top.stdout
        );
    }
    let lifecycle = run_chant(None, &["lifecycle", "--help"]);
    for command in [
        "snapshot", "show", "diff", "plan", "log", "whoami", "teardown",
    ] {
        assert!(
            lifecycle.stdout.contains(command),
            "chant lifecycle --help lacks {command}:\n{}",
            lifecycle.stdout
        );
    }
    assert_eq!(run_chant(None, &["lc", "--help"]).stdout, lifecycle.stdout);
}

/// The files in completions/ are what `chant completions <shell>` prints. Regenerate with
/// `for s in bash zsh fish elvish powershell; do chant completions $s > completions/...; done`
/// (see completions/README.md).
#[test]
fn the_checked_in_completions_are_current() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("completions");
    for (shell, file) in [
        (Shell::Bash, "chant.bash"),
        (Shell::Zsh, "_chant"),
        (Shell::Fish, "chant.fish"),
        (Shell::Elvish, "chant.elv"),
        (Shell::PowerShell, "_chant.ps1"),
    ] {
        let printed = run_chant(None, &["completions", &shell.to_string()]);
        assert_eq!(printed.code, 0);
        let checked_in = std::fs::read_to_string(dir.join(file)).unwrap_or_default();
        assert!(
            printed.stdout == checked_in,
            "completions/{file} is stale: regenerate it with `chant completions {shell}`"
        );
    }
}
