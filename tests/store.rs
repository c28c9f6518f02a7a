//! The `chant/lifecycle` store against real git repositories (made with git2 in temporary
//! directories): orphan-branch writes that never touch HEAD/index/work tree, reads at
//! revisions, and push-with-lease races between two clones of one bare remote.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Barrier;

use chant::store::{BRANCH_REF, FetchOutcome, LifecycleStore, PushOutcome, StoreError};
use git2::{Oid, Repository, Signature};
use tempfile::TempDir;

// ---------------------------------------------------------------------------------------
// helpers

fn sig() -> Signature<'static> {
    Signature::now("Test", "test@example.com").unwrap()
}

/// A work repository with one commit on `main` (README) and `origin` pointing at `remote`
/// when given.
fn work_repo(dir: &Path, remote: Option<&Path>) -> Repository {
    let repo = Repository::init(dir).unwrap();
    repo.set_head("refs/heads/main").unwrap();
    fs::write(dir.join("README"), "hello\n").unwrap();
    {
        let mut index = repo.index().unwrap();
        index.add_path(Path::new("README")).unwrap();
        index.write().unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        repo.commit(Some("HEAD"), &sig(), &sig(), "initial", &tree, &[])
            .unwrap();
    }
    if let Some(remote) = remote {
        repo.remote("origin", remote.to_str().unwrap()).unwrap();
    }
    repo
}

/// A bare remote plus `n` clones of it (work repositories with `origin`).
struct Fleet {
    _dir: TempDir,
    remote: PathBuf,
    clones: Vec<PathBuf>,
}

fn fleet(n: usize) -> Fleet {
    let dir = tempfile::tempdir().unwrap();
    let remote = dir.path().join("remote.git");
    Repository::init_bare(&remote).unwrap();
    let clones = (0..n)
        .map(|i| {
            let path = dir.path().join(format!("clone{i}"));
            work_repo(&path, Some(&remote));
            path
        })
        .collect();
    Fleet {
        _dir: dir,
        remote,
        clones,
    }
}

fn store(path: &Path) -> LifecycleStore {
    LifecycleStore::open(path).unwrap()
}

fn remote_tip(remote: &Path) -> Option<Oid> {
    let repo = Repository::open(remote).unwrap();
    repo.find_reference(BRANCH_REF)
        .ok()
        .and_then(|r| r.target())
}

/// For every blob content (as text), how many commits of the remote branch's first-parent
/// history after `since` introduced it at some path (i.e. the path held something else,
/// or nothing, in the parent). Also returns the number of commits walked.
fn introductions(remote: &Path, since: Option<Oid>) -> (BTreeMap<String, usize>, usize) {
    let repo = Repository::open(remote).unwrap();
    let mut counts = BTreeMap::new();
    let mut walked = 0;
    let Some(mut id) = remote_tip(remote) else {
        return (counts, 0);
    };
    loop {
        if Some(id) == since {
            break;
        }
        walked += 1;
        let commit = repo.find_commit(id).unwrap();
        let parent = commit.parents().next();
        let mut record = |root: &str, entry: &git2::TreeEntry<'_>| {
            if entry.kind() != Some(git2::ObjectType::Blob) {
                return git2::TreeWalkResult::Ok;
            }
            let path = format!("{root}{}", entry.name().unwrap());
            let before = parent
                .as_ref()
                .and_then(|p| p.tree().unwrap().get_path(Path::new(&path)).ok())
                .map(|e| e.id());
            if before != Some(entry.id()) {
                let blob = repo.find_blob(entry.id()).unwrap();
                let text = String::from_utf8(blob.content().to_vec()).unwrap();
                *counts.entry(text).or_insert(0) += 1;
            }
            git2::TreeWalkResult::Ok
        };
        commit
            .tree()
            .unwrap()
            .walk(git2::TreeWalkMode::PreOrder, &mut record)
            .unwrap();
        match parent {
            Some(p) => id = p.id(),
            None => break,
        }
    }
    (counts, walked)
}

fn is_stale(result: &Result<PushOutcome, StoreError>) -> bool {
    matches!(result, Err(StoreError::Stale { .. }))
}

// ---------------------------------------------------------------------------------------
// local branch: write / read / list / log

#[test]
fn outside_a_repository_is_a_typed_error() {
    let dir = tempfile::tempdir().unwrap();
    match LifecycleStore::open(dir.path()) {
        Err(StoreError::NotARepository { path }) => assert_eq!(path, dir.path()),
        other => panic!("expected NotARepository, got {other:?}"),
    }
}

#[test]
fn opens_from_a_subdirectory() {
    let dir = tempfile::tempdir().unwrap();
    work_repo(dir.path(), None);
    let sub = dir.path().join("infra/k8s");
    fs::create_dir_all(&sub).unwrap();
    let s = store(&sub);
    s.write(&[("dev/k8s.json", "{}\n")], "State snapshot")
        .unwrap();
    assert_eq!(
        store(dir.path()).read("dev/k8s.json").unwrap().as_deref(),
        Some("{}\n")
    );
}

#[test]
fn write_creates_an_orphan_branch_without_touching_head_index_or_work_tree() {
    let dir = tempfile::tempdir().unwrap();
    let repo = work_repo(dir.path(), None);
    let main = repo.head().unwrap().target().unwrap();

    // Dirty work tree, a staged new file, an untracked file.
    fs::write(dir.path().join("README"), "edited but not staged\n").unwrap();
    fs::write(dir.path().join("staged.txt"), "staged\n").unwrap();
    let mut index = repo.index().unwrap();
    index.add_path(Path::new("staged.txt")).unwrap();
    index.write().unwrap();
    fs::write(dir.path().join("untracked.txt"), "untracked\n").unwrap();

    let index_bytes = fs::read(dir.path().join(".git/index")).unwrap();
    let head_file = fs::read(dir.path().join(".git/HEAD")).unwrap();
    let status_before: Vec<(String, git2::Status)> = repo
        .statuses(None)
        .unwrap()
        .iter()
        .map(|e| (e.path().unwrap().to_owned(), e.status()))
        .collect();

    let s = store(dir.path());
    assert_eq!(s.head_commit().unwrap(), Some(main.to_string()));
    let first = s
        .write(
            &[
                ("dev/k8s.json", "{\"a\":1}\n"),
                ("dev/aws.json", "{\"b\":2}\n"),
            ],
            "State snapshot",
        )
        .unwrap();

    // One root commit holding both files.
    let commit = repo.find_commit(Oid::from_str(&first).unwrap()).unwrap();
    assert_eq!(
        commit.parent_count(),
        0,
        "the first write is an orphan root"
    );
    assert_eq!(commit.summary(), Ok(Some("State snapshot")));
    assert_eq!(s.log().unwrap().len(), 1, "one commit per write");
    assert_eq!(s.list("dev").unwrap(), ["aws.json", "k8s.json"]);
    assert!(
        !repo.graph_descendant_of(commit.id(), main).unwrap(),
        "the branch shares no history with main"
    );

    // HEAD, the index and the work tree are exactly as they were.
    assert_eq!(fs::read(dir.path().join(".git/HEAD")).unwrap(), head_file);
    assert_eq!(repo.head().unwrap().name().unwrap(), "refs/heads/main");
    assert_eq!(repo.head().unwrap().target(), Some(main));
    assert_eq!(
        fs::read(dir.path().join(".git/index")).unwrap(),
        index_bytes
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("README")).unwrap(),
        "edited but not staged\n"
    );
    assert!(!dir.path().join("dev").exists(), "nothing is checked out");
    let status_after: Vec<(String, git2::Status)> = repo
        .statuses(None)
        .unwrap()
        .iter()
        .map(|e| (e.path().unwrap().to_owned(), e.status()))
        .collect();
    assert_eq!(status_after, status_before);

    // A second write has the first as its parent and still leaves HEAD alone.
    let second = s
        .write(&[("dev/k8s.json", "{\"a\":2}\n")], "State snapshot")
        .unwrap();
    let second = repo.find_commit(Oid::from_str(&second).unwrap()).unwrap();
    assert_eq!(second.parent_ids().collect::<Vec<_>>(), [commit.id()]);
    assert_eq!(repo.head().unwrap().target(), Some(main));
    assert_eq!(
        fs::read(dir.path().join(".git/index")).unwrap(),
        index_bytes
    );
}

#[test]
fn unborn_head_has_no_head_commit_and_stays_unborn() {
    let dir = tempfile::tempdir().unwrap();
    let repo = Repository::init(dir.path()).unwrap();
    let s = store(dir.path());
    assert_eq!(s.head_commit().unwrap(), None);
    s.write(&[("dev/k8s.json", "{}\n")], "State snapshot")
        .unwrap();
    assert!(repo.head().is_err(), "HEAD is still unborn");
    assert_eq!(s.head_commit().unwrap(), None);
    assert_eq!(s.read("dev/k8s.json").unwrap().as_deref(), Some("{}\n"));
}

#[test]
fn content_round_trips_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let repo = work_repo(dir.path(), None);
    let s = store(dir.path());
    // A JSON string with `\n` escapes, backslashes, a tab escape, unicode, CRLF inside,
    // and the caller's own trailing newline (and nothing added to it).
    let content = "{\n  \"script\": \"line1\\nline2\\\\n\\t\\\\\",\n  \"path\": \"C:\\\\tmp\\\\x\",\n  \"crlf\": \"a\r\nb\",\n  \"uni\": \"é→✓\"\n}\n";
    s.write(&[("dev/k8s.json", content)], "State snapshot")
        .unwrap();
    assert_eq!(s.read("dev/k8s.json").unwrap().as_deref(), Some(content));

    let tip = repo.find_reference(BRANCH_REF).unwrap().target().unwrap();
    let tree = repo.find_commit(tip).unwrap().tree().unwrap();
    let blob = repo
        .find_blob(tree.get_path(Path::new("dev/k8s.json")).unwrap().id())
        .unwrap();
    assert_eq!(blob.content(), content.as_bytes());

    // No trailing newline is added either.
    s.write(&[("dev/raw.json", "no newline")], "State snapshot")
        .unwrap();
    assert_eq!(
        s.read("dev/raw.json").unwrap().as_deref(),
        Some("no newline")
    );
}

#[test]
fn rewrite_replaces_one_file_and_preserves_everything_else() {
    let dir = tempfile::tempdir().unwrap();
    let repo = work_repo(dir.path(), None);
    let s = store(dir.path());
    s.write(
        &[
            ("dev/k8s.json", "k8s v1\n"),
            ("dev/shop__aws.json", "aws v1\n"),
            ("dev/observation-baseline.json", "baseline\n"),
            ("prod/k8s.json", "prod k8s\n"),
        ],
        "State snapshot",
    )
    .unwrap();

    // Someone else adds a root-level file and another directory directly.
    let tip = repo.find_reference(BRANCH_REF).unwrap().target().unwrap();
    let tip_commit = repo.find_commit(tip).unwrap();
    let mut root = repo.treebuilder(Some(&tip_commit.tree().unwrap())).unwrap();
    root.insert("NOTES", repo.blob(b"notes\n").unwrap(), 0o100644)
        .unwrap();
    let mut builds = repo.treebuilder(None).unwrap();
    builds
        .insert("sha256_abc.json", repo.blob(b"build\n").unwrap(), 0o100644)
        .unwrap();
    root.insert("_builds", builds.write().unwrap(), 0o040000)
        .unwrap();
    let root = repo.find_tree(root.write().unwrap()).unwrap();
    let foreign = repo
        .commit(
            Some(BRANCH_REF),
            &sig(),
            &sig(),
            "Build manifest",
            &root,
            &[&tip_commit],
        )
        .unwrap();

    let before = repo.find_commit(foreign).unwrap().tree().unwrap();
    s.write(&[("dev/k8s.json", "k8s v2\n")], "State snapshot")
        .unwrap();
    let tip = repo.find_reference(BRANCH_REF).unwrap().target().unwrap();
    let after = repo.find_commit(tip).unwrap().tree().unwrap();

    assert_eq!(s.read("dev/k8s.json").unwrap().as_deref(), Some("k8s v2\n"));
    for kept in [
        "dev/shop__aws.json",
        "dev/observation-baseline.json",
        "prod/k8s.json",
        "NOTES",
        "_builds/sha256_abc.json",
    ] {
        let p = Path::new(kept);
        assert_eq!(
            after.get_path(p).unwrap().id(),
            before.get_path(p).unwrap().id(),
            "{kept} is kept as it was"
        );
    }
    assert_eq!(
        after.get_name("prod").unwrap().id(),
        before.get_name("prod").unwrap().id(),
        "untouched directories keep their tree"
    );
    assert_eq!(
        s.list("dev").unwrap(),
        ["k8s.json", "observation-baseline.json", "shop__aws.json"]
    );
}

#[test]
fn read_at_resolves_ids_short_ids_and_revspecs() {
    let dir = tempfile::tempdir().unwrap();
    work_repo(dir.path(), None);
    let s = store(dir.path());
    let c1 = s
        .write(&[("dev/k8s.json", "one\n")], "State snapshot")
        .unwrap();
    let c2 = s
        .write(&[("dev/k8s.json", "two\n")], "State snapshot")
        .unwrap();
    let c3 = s
        .write(
            &[("dev/aws.json", "aws\n")],
            "Accepted observation baseline",
        )
        .unwrap();

    assert_eq!(
        s.read_at(&c1, "dev/k8s.json").unwrap().as_deref(),
        Some("one\n")
    );
    assert_eq!(
        s.read_at(&c2[..7], "dev/k8s.json").unwrap().as_deref(),
        Some("two\n")
    );
    assert_eq!(
        s.read_at("chant/lifecycle~2", "dev/k8s.json")
            .unwrap()
            .as_deref(),
        Some("one\n")
    );
    assert_eq!(
        s.read_at("chant/lifecycle^", "dev/k8s.json")
            .unwrap()
            .as_deref(),
        Some("two\n")
    );
    assert_eq!(
        s.read_at(&c3, "dev/aws.json").unwrap().as_deref(),
        Some("aws\n")
    );
    assert_eq!(
        s.read_at(&c1, "dev/aws.json").unwrap(),
        None,
        "not there yet"
    );
    assert_eq!(s.read_at(&c1, "prod/k8s.json").unwrap(), None);
    assert!(matches!(
        s.read_at("no-such-ref", "dev/k8s.json"),
        Err(StoreError::UnknownRevision { .. })
    ));
    assert!(matches!(
        s.read_at("chant/lifecycle~9", "dev/k8s.json"),
        Err(StoreError::UnknownRevision { .. })
    ));
    let err = s.read_at("deadbeef00", "dev/k8s.json").unwrap_err();
    assert!(err.to_string().contains("deadbeef00"), "{err}");
}

#[test]
fn list_is_byte_sorted_direct_files_only() {
    let dir = tempfile::tempdir().unwrap();
    work_repo(dir.path(), None);
    let s = store(dir.path());
    assert!(s.list("dev").unwrap().is_empty(), "no branch yet");
    s.write(
        &[
            ("dev/k8s.json", "1\n"),
            ("dev/B.json", "2\n"),
            ("dev/_x.json", "3\n"),
            ("dev/shop__k8s.json", "4\n"),
            ("dev/observation-baseline.json", "5\n"),
            ("prod/k8s.json", "6\n"),
        ],
        "State snapshot",
    )
    .unwrap();
    assert_eq!(
        s.list("dev").unwrap(),
        [
            "B.json",
            "_x.json",
            "k8s.json",
            "observation-baseline.json",
            "shop__k8s.json"
        ]
    );
    assert_eq!(s.list("prod").unwrap(), ["k8s.json"]);
    assert!(s.list("staging").unwrap().is_empty());
    assert!(matches!(
        s.list("dev/x"),
        Err(StoreError::InvalidPath { .. })
    ));
}

#[test]
fn log_is_newest_first_with_iso_dates() {
    let dir = tempfile::tempdir().unwrap();
    work_repo(dir.path(), None);
    let s = store(dir.path());
    assert!(s.log().unwrap().is_empty(), "no branch, no entries");
    let c1 = s
        .write(&[("dev/k8s.json", "1\n")], "State snapshot")
        .unwrap();
    let c2 = s
        .write(
            &[("dev/observation-baseline.json", "b\n")],
            "Accepted observation baseline",
        )
        .unwrap();
    let log = s.log().unwrap();
    assert_eq!(
        log.iter()
            .map(|e| (e.commit.as_str(), e.subject.as_str()))
            .collect::<Vec<_>>(),
        [
            (c2.as_str(), "Accepted observation baseline"),
            (c1.as_str(), "State snapshot")
        ]
    );
    let iso = regex::Regex::new(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$").unwrap();
    for entry in &log {
        assert!(iso.is_match(&entry.date), "{}", entry.date);
    }
    assert_eq!(s.tip().unwrap(), Some(c2));
}

#[test]
fn invalid_writes_are_rejected_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    work_repo(dir.path(), None);
    let s = store(dir.path());
    for bad in [
        "",
        "dev",
        "dev/",
        "/k8s.json",
        "a/b/c",
        "../x",
        "dev/..",
        ".git/config",
    ] {
        assert!(
            matches!(
                s.write(&[(bad, "x\n")], "State snapshot"),
                Err(StoreError::InvalidPath { .. })
            ),
            "{bad:?}"
        );
    }
    let none: &[(&str, &str)] = &[];
    assert!(matches!(
        s.write(none, "m"),
        Err(StoreError::NothingToWrite)
    ));
    assert!(matches!(
        s.write(&[("dev/k8s.json", "a\n"), ("dev/k8s.json", "b\n")], "m"),
        Err(StoreError::InvalidPath { .. })
    ));
    assert!(matches!(
        s.write(&[("dev/k8s.json", "a\n"), ("bad", "b\n")], "m"),
        Err(StoreError::InvalidPath { .. })
    ));
    assert_eq!(s.tip().unwrap(), None, "nothing was committed");
    assert!(matches!(s.read("dev"), Err(StoreError::InvalidPath { .. })));
}

// ---------------------------------------------------------------------------------------
// sync: fetch / push

#[test]
fn without_a_remote_fetch_and_push_are_local_only() {
    let dir = tempfile::tempdir().unwrap();
    work_repo(dir.path(), None);
    let s = store(dir.path());
    assert_eq!(s.fetch().unwrap(), FetchOutcome::NoRemote);
    s.write(&[("dev/k8s.json", "1\n")], "State snapshot")
        .unwrap();
    assert_eq!(s.push().unwrap(), PushOutcome::LocalOnly);
}

#[test]
fn first_push_creates_the_remote_branch_and_fetch_fast_forwards_another_clone() {
    let f = fleet(2);
    let a = store(&f.clones[0]);
    let b = store(&f.clones[1]);

    assert_eq!(
        a.fetch().unwrap(),
        FetchOutcome::RemoteBranchMissing {
            remote: "origin".into()
        }
    );
    assert_eq!(
        a.push().unwrap(),
        PushOutcome::NothingToPush {
            remote: "origin".into()
        }
    );
    let c1 = a
        .write(&[("dev/k8s.json", "a1\n")], "State snapshot")
        .unwrap();
    assert_eq!(
        a.push().unwrap(),
        PushOutcome::Pushed {
            remote: "origin".into(),
            commit: c1.clone()
        }
    );
    assert_eq!(
        remote_tip(&f.remote).map(|o| o.to_string()),
        Some(c1.clone())
    );
    assert_eq!(a.remote_tracking_tip().unwrap(), Some(c1.clone()));
    assert_eq!(
        a.push().unwrap(),
        PushOutcome::UpToDate {
            remote: "origin".into(),
            commit: c1.clone()
        }
    );

    // The other clone has never seen the branch: fetch creates it locally.
    assert_eq!(b.read("dev/k8s.json").unwrap(), None);
    assert_eq!(
        b.fetch().unwrap(),
        FetchOutcome::FastForwarded {
            remote: "origin".into(),
            from: None,
            to: c1.clone()
        }
    );
    assert_eq!(b.read("dev/k8s.json").unwrap().as_deref(), Some("a1\n"));

    // A pushes again; B fast-forwards from its old tip.
    let c2 = a
        .write(&[("dev/aws.json", "a2\n")], "State snapshot")
        .unwrap();
    a.push().unwrap();
    assert_eq!(
        b.fetch().unwrap(),
        FetchOutcome::FastForwarded {
            remote: "origin".into(),
            from: Some(c1.clone()),
            to: c2.clone()
        }
    );
    assert_eq!(
        b.fetch().unwrap(),
        FetchOutcome::UpToDate {
            remote: "origin".into(),
            commit: c2.clone()
        }
    );
    assert_eq!(
        b.read_at(&c1, "dev/k8s.json").unwrap().as_deref(),
        Some("a1\n")
    );

    // B writes: ahead of the remote, kept by fetch, published by push.
    let c3 = b
        .write(&[("dev/k8s.json", "b3\n")], "State snapshot")
        .unwrap();
    assert_eq!(
        b.fetch().unwrap(),
        FetchOutcome::LocalAhead {
            remote: "origin".into(),
            local: c3.clone(),
            remote_tip: c2.clone()
        }
    );
    assert_eq!(b.tip().unwrap(), Some(c3.clone()));
    assert!(matches!(b.push().unwrap(), PushOutcome::Pushed { commit, .. } if commit == c3));
    assert_eq!(remote_tip(&f.remote).map(|o| o.to_string()), Some(c3));

    // Neither clone's HEAD moved.
    for clone in &f.clones {
        let repo = Repository::open(clone).unwrap();
        assert_eq!(repo.head().unwrap().name().unwrap(), "refs/heads/main");
    }
}

#[test]
fn a_remote_branch_deleted_after_fetch_makes_the_lease_fail() {
    let f = fleet(1);
    let a = store(&f.clones[0]);
    a.write(&[("dev/k8s.json", "1\n")], "State snapshot")
        .unwrap();
    a.push().unwrap();
    Repository::open(&f.remote)
        .unwrap()
        .find_reference(BRANCH_REF)
        .unwrap()
        .delete()
        .unwrap();
    a.write(&[("dev/k8s.json", "2\n")], "State snapshot")
        .unwrap();
    assert!(matches!(
        a.push(),
        Err(StoreError::Stale {
            found: None,
            expected: Some(_),
            ..
        })
    ));
    // Fetch notices the deletion (and drops the tracking ref); the next push recreates it.
    assert_eq!(
        a.fetch().unwrap(),
        FetchOutcome::RemoteBranchMissing {
            remote: "origin".into()
        }
    );
    assert_eq!(a.remote_tracking_tip().unwrap(), None);
    assert!(matches!(a.push().unwrap(), PushOutcome::Pushed { .. }));
}

#[test]
fn the_lease_refuses_a_remote_that_was_rewound_even_when_the_push_would_fast_forward() {
    let f = fleet(1);
    let a = store(&f.clones[0]);
    let c1 = a
        .write(&[("dev/k8s.json", "1\n")], "State snapshot")
        .unwrap();
    a.push().unwrap();
    let c2 = a
        .write(&[("dev/k8s.json", "2\n")], "State snapshot")
        .unwrap();
    a.push().unwrap();
    // Someone rewinds the remote to c1 behind our back.
    Repository::open(&f.remote)
        .unwrap()
        .reference(BRANCH_REF, Oid::from_str(&c1).unwrap(), true, "rewind")
        .unwrap();
    a.write(&[("dev/k8s.json", "3\n")], "State snapshot")
        .unwrap();
    match a.push() {
        Err(StoreError::Stale {
            expected, found, ..
        }) => {
            assert_eq!(expected, Some(c2));
            assert_eq!(found, Some(c1.clone()));
        }
        other => panic!("expected Stale, got {other:?}"),
    }
    assert_eq!(remote_tip(&f.remote).map(|o| o.to_string()), Some(c1));
}

#[test]
fn pushing_a_local_branch_that_dropped_fetched_history_is_refused() {
    let f = fleet(2);
    let a = store(&f.clones[0]);
    let b = store(&f.clones[1]);
    a.write(&[("dev/k8s.json", "a1\n")], "State snapshot")
        .unwrap();
    a.push().unwrap();
    b.fetch().unwrap();
    a.write(&[("dev/k8s.json", "a2\n")], "State snapshot")
        .unwrap();
    a.push().unwrap();
    b.write(&[("dev/aws.json", "b1\n")], "State snapshot")
        .unwrap();
    let err = b.fetch().unwrap_err();
    assert!(matches!(err, StoreError::Diverged { .. }), "{err:?}");
    assert!(err.to_string().contains("origin/chant/lifecycle"), "{err}");
    // The tracking ref now holds a2, which B's branch lacks: pushing would drop it.
    assert!(matches!(b.push(), Err(StoreError::Diverged { .. })));

    // Dropping the local write instead of re-applying it.
    let remote = remote_tip(&f.remote).unwrap().to_string();
    assert_eq!(b.reset_to_remote().unwrap(), Some(remote.clone()));
    assert_eq!(b.read("dev/k8s.json").unwrap().as_deref(), Some("a2\n"));
    assert_eq!(b.read("dev/aws.json").unwrap(), None);
    assert_eq!(
        b.push().unwrap(),
        PushOutcome::UpToDate {
            remote: "origin".into(),
            commit: remote
        }
    );
}

#[test]
fn credentials_in_a_remote_url_never_reach_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let repo = work_repo(dir.path(), None);
    // Port 9 on localhost: nothing listens, the connection is refused at once.
    repo.remote("origin", "http://alice:s3cr3t-token@127.0.0.1:9/repo.git")
        .unwrap();
    let s = store(dir.path());
    let err = s.fetch().unwrap_err();
    let text = format!("{err} {err:?}");
    assert!(!text.contains("s3cr3t"), "{text}");
    assert!(!text.contains("alice"), "{text}");
    assert!(text.contains("origin"), "{text}");
    s.write(&[("dev/k8s.json", "1\n")], "State snapshot")
        .unwrap();
    let err = s.push().unwrap_err();
    let text = format!("{err} {err:?}");
    assert!(!text.contains("s3cr3t"), "{text}");
}

// ---------------------------------------------------------------------------------------
// racing writers

/// Both clones fetch, both write, A pushes then B pushes: A wins, B is Stale; B fetches
/// (diverged), re-applies, pushes.
fn sequential_race(
    f: &Fleet,
    a: &LifecycleStore,
    b: &LifecycleStore,
    round: &str,
    same_path: bool,
) {
    a.fetch().unwrap();
    b.fetch().unwrap();
    let a_content = format!("writer A {round}\n");
    let b_content = format!("writer B {round}\n");
    a.write(&[("dev/k8s.json", a_content.as_str())], "State snapshot")
        .unwrap();
    let b_path = if same_path {
        "dev/k8s.json"
    } else {
        "dev/aws.json"
    };
    b.write(&[(b_path, b_content.as_str())], "State snapshot")
        .unwrap();

    assert!(matches!(a.push().unwrap(), PushOutcome::Pushed { .. }));
    let lost = b.push();
    assert!(is_stale(&lost), "{lost:?}");
    assert_eq!(
        lost.unwrap_err().to_string(),
        "Another snapshot completed for chant/lifecycle after this run started"
    );

    assert!(matches!(b.fetch(), Err(StoreError::Diverged { .. })));
    let replayed = b.rebase_onto_remote().unwrap();
    assert_eq!(replayed.len(), 1);
    assert_eq!(b.read(b_path).unwrap().as_deref(), Some(b_content.as_str()));
    if !same_path {
        assert_eq!(
            b.read("dev/k8s.json").unwrap().as_deref(),
            Some(a_content.as_str())
        );
    }
    assert!(
        matches!(b.push().unwrap(), PushOutcome::Pushed { commit, .. } if commit == replayed[0])
    );
    assert_eq!(
        remote_tip(&f.remote).map(|o| o.to_string()),
        Some(replayed[0].clone())
    );
}

#[test]
fn racing_writers_sequentially_first_push_and_later_pushes() {
    let f = fleet(2);
    let a = store(&f.clones[0]);
    let b = store(&f.clones[1]);
    // Round 0 races on creating the branch (both orphan roots), later rounds on moving it;
    // odd rounds write the same file, even rounds different files.
    for round in 0..4 {
        sequential_race(&f, &a, &b, &format!("r{round}"), round % 2 == 1);
    }
    let (counts, commits) = introductions(&f.remote, None);
    assert_eq!(
        commits, 8,
        "two commits per round, nothing lost, nothing doubled"
    );
    for round in 0..4 {
        for writer in ["A", "B"] {
            assert_eq!(
                counts.get(&format!("writer {writer} r{round}\n")),
                Some(&1),
                "writer {writer} round {round}: {counts:?}"
            );
        }
    }
}

/// Both clones fetch and write, then push at the same instant from two threads; the
/// loser fetches, re-applies and pushes. Checks the history added by these rounds.
fn concurrent_rounds(f: &Fleet, rounds: usize) {
    let start = remote_tip(&f.remote);
    let mut stores = vec![store(&f.clones[0]), store(&f.clones[1])];
    for round in 0..rounds {
        let barrier = Barrier::new(2);
        let results: Vec<(LifecycleStore, Result<PushOutcome, StoreError>)> =
            std::thread::scope(|scope| {
                let handles: Vec<_> = stores
                    .drain(..)
                    .enumerate()
                    .map(|(i, s)| {
                        let barrier = &barrier;
                        scope.spawn(move || {
                            s.fetch().unwrap();
                            let writer = if i == 0 { "A" } else { "B" };
                            let content = format!("writer {writer} c{round}\n");
                            // Same file on even rounds, different files on odd rounds.
                            let path = if round % 2 == 0 || i == 0 {
                                "dev/k8s.json"
                            } else {
                                "dev/aws.json"
                            };
                            s.write(&[(path, content.as_str())], "State snapshot")
                                .unwrap();
                            barrier.wait();
                            let pushed = s.push();
                            (s, pushed)
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
        let winners = results
            .iter()
            .filter(|(_, r)| matches!(r, Ok(PushOutcome::Pushed { .. })))
            .count();
        let losers = results.iter().filter(|(_, r)| is_stale(r)).count();
        assert_eq!(
            (winners, losers),
            (1, 1),
            "round {round}: {:?}",
            results.iter().map(|(_, r)| r).collect::<Vec<_>>()
        );
        for (s, result) in results {
            if is_stale(&result) {
                assert!(matches!(s.fetch(), Err(StoreError::Diverged { .. })));
                assert_eq!(s.rebase_onto_remote().unwrap().len(), 1);
                assert!(matches!(s.push().unwrap(), PushOutcome::Pushed { .. }));
            }
            stores.push(s);
        }
    }
    let (counts, commits) = introductions(&f.remote, start);
    assert_eq!(
        commits,
        2 * rounds,
        "two commits per round, nothing lost, nothing doubled"
    );
    for round in 0..rounds {
        for writer in ["A", "B"] {
            assert_eq!(
                counts.get(&format!("writer {writer} c{round}\n")),
                Some(&1),
                "writer {writer} round {round}: {counts:?}"
            );
        }
    }
}

#[test]
fn racing_writers_concurrently_exactly_one_wins_each_round() {
    let f = fleet(2);
    concurrent_rounds(&f, 12);
}

// ---------------------------------------------------------------------------------------
// a network transport: git:// served by `git daemon` (skipped when unavailable)

struct Daemon {
    child: std::process::Child,
    port: u16,
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn git_daemon(base: &Path) -> Option<Daemon> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .ok()?
        .local_addr()
        .ok()?
        .port();
    let child = std::process::Command::new("git")
        .arg("daemon")
        .arg("--reuseaddr")
        .arg("--export-all")
        .arg("--enable=receive-pack")
        .arg("--listen=127.0.0.1")
        .arg(format!("--port={port}"))
        .arg(format!("--base-path={}", base.display()))
        .arg(base)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    let daemon = Daemon { child, port };
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Some(daemon);
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    None
}

#[test]
fn racing_writers_over_the_git_protocol() {
    let f = fleet(2);
    let base = f.remote.parent().unwrap();
    let Some(daemon) = git_daemon(base) else {
        eprintln!("skipping: `git daemon` is not available");
        return;
    };
    let url = format!("git://127.0.0.1:{}/remote.git", daemon.port);
    for clone in &f.clones {
        Repository::open(clone)
            .unwrap()
            .remote_set_url("origin", &url)
            .unwrap();
    }
    let a = store(&f.clones[0]);
    let b = store(&f.clones[1]);
    for round in 0..3 {
        sequential_race(&f, &a, &b, &format!("g{round}"), round % 2 == 1);
    }
    drop((a, b));
    let (counts, commits) = introductions(&f.remote, None);
    assert_eq!(commits, 6);
    assert!(counts.values().all(|&n| n == 1), "{counts:?}");

    // The lease over the network: a rewound remote is refused although it would
    // fast-forward.
    let a = store(&f.clones[0]);
    assert!(matches!(
        a.fetch().unwrap(),
        FetchOutcome::FastForwarded { .. }
    ));
    let before = remote_tip(&f.remote).unwrap();
    let parent = Repository::open(&f.remote)
        .unwrap()
        .find_commit(before)
        .unwrap()
        .parent_id(0)
        .unwrap();
    Repository::open(&f.remote)
        .unwrap()
        .reference(BRANCH_REF, parent, true, "rewind")
        .unwrap();
    a.write(&[("dev/k8s.json", "after rewind\n")], "State snapshot")
        .unwrap();
    match a.push() {
        Err(StoreError::Stale {
            expected, found, ..
        }) => {
            assert_eq!(expected, Some(before.to_string()));
            assert_eq!(found, Some(parent.to_string()));
        }
        other => panic!("expected Stale, got {other:?}"),
    }

    // Publish A's pending write so both clones start the concurrent rounds clean.
    assert_eq!(
        a.fetch().unwrap(),
        FetchOutcome::LocalAhead {
            remote: "origin".into(),
            local: a.tip().unwrap().unwrap(),
            remote_tip: parent.to_string(),
        }
    );
    assert!(matches!(a.push().unwrap(), PushOutcome::Pushed { .. }));
    drop(a);
    concurrent_rounds(&f, 4);
    drop(daemon);
}

#[test]
fn concurrent_local_writers_never_lose_a_commit() {
    let dir = tempfile::tempdir().unwrap();
    work_repo(dir.path(), None);
    let barrier = Barrier::new(2);
    std::thread::scope(|scope| {
        for writer in ["a", "b"] {
            let barrier = &barrier;
            let path = dir.path();
            scope.spawn(move || {
                let s = store(path);
                barrier.wait();
                for i in 0..15 {
                    s.write(
                        &[(format!("{writer}/{i}.json"), format!("{writer}{i}\n"))],
                        "State snapshot",
                    )
                    .unwrap();
                }
            });
        }
    });
    let s = store(dir.path());
    assert_eq!(
        s.log().unwrap().len(),
        30,
        "every write is one commit on one line of history"
    );
    for writer in ["a", "b"] {
        let mut expected: Vec<String> = (0..15).map(|i| format!("{i}.json")).collect();
        expected.sort();
        assert_eq!(s.list(writer).unwrap(), expected);
    }
}
