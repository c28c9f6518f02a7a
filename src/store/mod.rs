//! The `chant/lifecycle` orphan branch: snapshots and the accepted observation baseline,
//! kept in the project's own git repository.
//!
//! Layout (a two-level tree, `<dir>/<file>`):
//!
//! | path | content |
//! |---|---|
//! | `<env>/<lexicon>.json` | a snapshot, single stack |
//! | `<env>/<stack>__<lexicon>.json` | a snapshot, one of several stacks |
//! | `<env>/observation-baseline.json` | the accepted observation baseline |
//!
//! Everything is done through the object database and compare-and-swap ref updates
//! (libgit2 via `git2`, never the `git` binary): a write never touches `HEAD`, the index
//! or the work tree. Every entry of the branch that a write does not name (other
//! environments, other lexicons, files other tools put there) is kept as it was.
//!
//! Sync is "fetch before read, push with a lease": [`LifecycleStore::fetch`] brings the
//! first remote's branch into `refs/remotes/<remote>/chant/lifecycle` and fast-forwards
//! the local branch; [`LifecycleStore::push`] publishes the local branch only if the
//! remote still holds what was last fetched, and otherwise fails with
//! [`StoreError::Stale`]. The loser of a race fetches (which reports
//! [`StoreError::Diverged`]), re-applies its writes with
//! [`LifecycleStore::rebase_onto_remote`] (or drops them with
//! [`LifecycleStore::reset_to_remote`]) and pushes again.

mod error;
mod sync;
mod tree;
mod url;

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

use git2::{ErrorCode, Oid, Repository, Signature, Sort};

pub use error::{Result, StoreError};
pub use sync::{FetchOutcome, PushOutcome};

use tree::{Changes, Entry};

/// The branch name.
pub const BRANCH: &str = "chant/lifecycle";
/// The branch's full ref name.
pub const BRANCH_REF: &str = "refs/heads/chant/lifecycle";
/// The baseline's file name under `<env>/`.
pub const BASELINE_FILE: &str = "observation-baseline.json";

/// How often a compare-and-swap ref update is retried when another process moved or
/// locked the ref in between.
const CAS_ATTEMPTS: u32 = 20;

/// The storage key of a snapshot: `<lexicon>` or `<stack>__<lexicon>`.
pub fn snapshot_key(stack: Option<&str>, lexicon: &str) -> String {
    match stack {
        Some(stack) => format!("{stack}__{lexicon}"),
        None => lexicon.to_owned(),
    }
}

/// The path of a snapshot: `<env>/<key>.json` (see [`snapshot_key`]).
pub fn snapshot_path(env: &str, stack: Option<&str>, lexicon: &str) -> String {
    format!("{env}/{}.json", snapshot_key(stack, lexicon))
}

/// The path of an environment's accepted observation baseline.
pub fn baseline_path(env: &str) -> String {
    format!("{env}/{BASELINE_FILE}")
}

/// One commit of the branch, as `chant lifecycle log` shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LogEntry {
    /// The full commit id.
    pub commit: String,
    /// The author date, strict ISO 8601 with the author's offset (git's `%aI`).
    pub date: String,
    /// The subject line.
    pub subject: String,
}

/// The `chant/lifecycle` branch of one git repository.
pub struct LifecycleStore {
    repo: Repository,
}

impl std::fmt::Debug for LifecycleStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LifecycleStore")
            .field("git_dir", &self.repo.path())
            .finish()
    }
}

impl LifecycleStore {
    /// Opens the git repository containing `project_dir` (searching upward).
    pub fn open(project_dir: impl AsRef<Path>) -> Result<Self> {
        let path = project_dir.as_ref();
        match Repository::discover(path) {
            Ok(repo) => Ok(Self { repo }),
            Err(e) if e.code() == ErrorCode::NotFound => Err(StoreError::NotARepository {
                path: path.to_path_buf(),
            }),
            Err(source) => Err(StoreError::Open {
                path: path.to_path_buf(),
                source,
            }),
        }
    }

    /// Wraps an already opened repository.
    pub fn from_repository(repo: Repository) -> Self {
        Self { repo }
    }

    /// The repository's git directory.
    pub fn git_dir(&self) -> &Path {
        self.repo.path()
    }

    /// The working repository's `HEAD` commit id (recorded in snapshots); `None` when
    /// `HEAD` is unborn (no commit yet).
    pub fn head_commit(&self) -> Result<Option<String>> {
        match self.repo.head() {
            Ok(head) => {
                let commit = head
                    .peel_to_commit()
                    .map_err(StoreError::git("resolving HEAD to a commit"))?;
                Ok(Some(commit.id().to_string()))
            }
            Err(e) if matches!(e.code(), ErrorCode::UnbornBranch | ErrorCode::NotFound) => Ok(None),
            Err(e) => Err(StoreError::git("reading HEAD")(e)),
        }
    }

    /// The local branch tip, `None` when the branch does not exist yet.
    pub fn tip(&self) -> Result<Option<String>> {
        Ok(self.tip_oid()?.map(|id| id.to_string()))
    }

    pub(crate) fn tip_oid(&self) -> Result<Option<Oid>> {
        ref_target(&self.repo, BRANCH_REF)
    }

    /// Writes `files` (`<dir>/<file>` → exact bytes) as **one** commit on top of the local
    /// branch tip (a root commit when the branch does not exist) and moves the branch to
    /// it. Returns the new commit id.
    ///
    /// Content is stored byte for byte: the caller supplies the trailing newline. Entries
    /// not named here are kept. `HEAD`, the index and the work tree are never touched.
    /// If another process moves the branch meanwhile, the write is re-applied on top of
    /// its commit (the branch is only ever moved with compare-and-swap).
    pub fn write<P, C>(&self, files: &[(P, C)], message: &str) -> Result<String>
    where
        P: AsRef<str>,
        C: AsRef<[u8]>,
    {
        if files.is_empty() {
            return Err(StoreError::NothingToWrite);
        }
        let mut changes = Changes::new();
        for (path, content) in files {
            let path = path.as_ref();
            let (dir, file) = tree::parse_file_path(path)?;
            let blob = self
                .repo
                .blob(content.as_ref())
                .map_err(StoreError::git(format!("storing {path} for {BRANCH}")))?;
            if changes
                .insert(
                    vec![dir.to_owned(), file.to_owned()],
                    Some(Entry::blob(blob)),
                )
                .is_some()
            {
                return Err(StoreError::InvalidPath {
                    path: path.to_owned(),
                    reason: "given more than once in one write",
                });
            }
        }
        let message = if message.ends_with('\n') {
            message.to_owned()
        } else {
            format!("{message}\n")
        };
        let signature = self.signature()?;
        let names: Vec<&str> = files.iter().map(|(p, _)| p.as_ref()).collect();
        let context = || format!("writing {} to {BRANCH}", names.join(", "));

        for attempt in 0..CAS_ATTEMPTS {
            let parent = match self.tip_oid()? {
                Some(id) => Some(
                    self.repo
                        .find_commit(id)
                        .map_err(StoreError::git(context()))?,
                ),
                None => None,
            };
            let base = match &parent {
                Some(p) => Some(p.tree().map_err(StoreError::git(context()))?),
                None => None,
            };
            let tree_id = tree::apply(&self.repo, base.as_ref(), &changes)
                .map_err(StoreError::git(context()))?;
            let tree = self
                .repo
                .find_tree(tree_id)
                .map_err(StoreError::git(context()))?;
            let parents: Vec<&git2::Commit<'_>> = parent.iter().collect();
            let commit = self
                .repo
                .commit(None, &signature, &signature, &message, &tree, &parents)
                .map_err(StoreError::git(context()))?;
            let reflog = format!("chant: {}", message.lines().next().unwrap_or_default());
            match cas_ref(
                &self.repo,
                BRANCH_REF,
                commit,
                parent.as_ref().map(|p| p.id()),
                &reflog,
            ) {
                Ok(()) => return Ok(commit.to_string()),
                Err(e) if is_cas_conflict(&e) => backoff(attempt),
                Err(e) => return Err(StoreError::git(context())(e)),
            }
        }
        Err(StoreError::ConcurrentUpdate)
    }

    /// The file at `<dir>/<file>` on the local branch tip; `None` when the branch or the
    /// file does not exist.
    pub fn read(&self, path: &str) -> Result<Option<String>> {
        tree::parse_file_path(path)?;
        let Some(tip) = self.tip_oid()? else {
            return Ok(None);
        };
        let tree = self
            .repo
            .find_commit(tip)
            .and_then(|c| c.tree())
            .map_err(StoreError::git(format!("reading {BRANCH}")))?;
        self.read_in(&tree, BRANCH, path)
    }

    /// The file at `<dir>/<file>` at revision `rev`: a full or short commit id, or any
    /// revspec (`chant/lifecycle~1`, `origin/chant/lifecycle`, a tag). `None` when the
    /// revision has no such file; an unknown revision is an error.
    pub fn read_at(&self, rev: &str, path: &str) -> Result<Option<String>> {
        tree::parse_file_path(path)?;
        let tree = self
            .repo
            .revparse_single(rev)
            .and_then(|object| object.peel_to_tree())
            .map_err(|e| StoreError::UnknownRevision {
                rev: rev.to_owned(),
                reason: e.message().to_owned(),
            })?;
        self.read_in(&tree, rev, path)
    }

    fn read_in(&self, tree: &git2::Tree<'_>, rev: &str, path: &str) -> Result<Option<String>> {
        let entry = match tree.get_path(Path::new(path)) {
            Ok(entry) => entry,
            Err(e) if e.code() == ErrorCode::NotFound => return Ok(None),
            Err(e) => return Err(StoreError::git(format!("reading {rev}:{path}"))(e)),
        };
        if entry.kind() != Some(git2::ObjectType::Blob) {
            return Ok(None);
        }
        let blob = self
            .repo
            .find_blob(entry.id())
            .map_err(StoreError::git(format!("reading {rev}:{path}")))?;
        String::from_utf8(blob.content().to_vec())
            .map(Some)
            .map_err(|_| StoreError::NotUtf8 {
                rev: rev.to_owned(),
                path: path.to_owned(),
            })
    }

    /// The names of the files directly under `<dir>/` on the local branch tip, sorted by
    /// bytes. Empty when the branch or the directory does not exist.
    pub fn list(&self, dir: &str) -> Result<Vec<String>> {
        tree::check_dir(dir)?;
        let Some(tip) = self.tip_oid()? else {
            return Ok(Vec::new());
        };
        let context = || format!("listing {BRANCH}:{dir}/");
        let root = self
            .repo
            .find_commit(tip)
            .and_then(|c| c.tree())
            .map_err(StoreError::git(context()))?;
        let Some(entry) = root.get_name(dir) else {
            return Ok(Vec::new());
        };
        if entry.kind() != Some(git2::ObjectType::Tree) {
            return Ok(Vec::new());
        }
        let sub = self
            .repo
            .find_tree(entry.id())
            .map_err(StoreError::git(context()))?;
        let names: BTreeSet<Vec<u8>> = sub
            .iter()
            .filter(|e| e.kind() == Some(git2::ObjectType::Blob))
            .map(|e| e.name_bytes().to_vec())
            .collect();
        // BTreeSet<Vec<u8>> orders by bytes; names were validated UTF-8 when written, but
        // other tools may have put anything there.
        Ok(names
            .into_iter()
            .map(|n| String::from_utf8_lossy(&n).into_owned())
            .collect())
    }

    /// The branch history, newest first; empty when the branch does not exist.
    pub fn log(&self) -> Result<Vec<LogEntry>> {
        let Some(tip) = self.tip_oid()? else {
            return Ok(Vec::new());
        };
        let context = || format!("walking {BRANCH}");
        let mut walk = self.repo.revwalk().map_err(StoreError::git(context()))?;
        walk.set_sorting(Sort::TOPOLOGICAL | Sort::TIME)
            .map_err(StoreError::git(context()))?;
        walk.push(tip).map_err(StoreError::git(context()))?;
        let mut entries = Vec::new();
        for id in walk {
            let id = id.map_err(StoreError::git(context()))?;
            let commit = self
                .repo
                .find_commit(id)
                .map_err(StoreError::git(context()))?;
            entries.push(LogEntry {
                commit: id.to_string(),
                date: iso_date(&commit.author().when()),
                subject: String::from_utf8_lossy(commit.summary_bytes().unwrap_or_default())
                    .into_owned(),
            });
        }
        Ok(entries)
    }

    /// The identity recorded on commits: the repository's `user.name`/`user.email`, or
    /// `chant <chant@localhost>` when none is configured.
    fn signature(&self) -> Result<Signature<'static>> {
        match self.repo.signature() {
            Ok(sig) => Ok(sig),
            Err(_) => Signature::now("chant", "chant@localhost")
                .map_err(StoreError::git("building a commit signature")),
        }
    }
}

/// The target of a direct ref, `None` when the ref does not exist.
pub(crate) fn ref_target(repo: &Repository, name: &str) -> Result<Option<Oid>> {
    match repo.find_reference(name) {
        Ok(r) => Ok(r.target()),
        Err(e) if e.code() == ErrorCode::NotFound => Ok(None),
        Err(e) => Err(StoreError::git(format!("reading {name}"))(e)),
    }
}

/// Moves `name` to `new` only if it currently points at `old` (`None`: only if it does not
/// exist). The comparison happens under the ref's lock (libgit2 treats a zero expected id
/// as "must not exist"), so two racing updates cannot both succeed.
pub(crate) fn cas_ref(
    repo: &Repository,
    name: &str,
    new: Oid,
    old: Option<Oid>,
    reflog: &str,
) -> Result<(), git2::Error> {
    repo.reference_matching(name, new, true, old.unwrap_or(Oid::ZERO_SHA1), reflog)
        .map(drop)
}

/// Whether a ref update failed because someone else changed or held the ref.
pub(crate) fn is_cas_conflict(e: &git2::Error) -> bool {
    matches!(
        e.code(),
        ErrorCode::Modified | ErrorCode::Exists | ErrorCode::Locked
    )
}

pub(crate) fn backoff(attempt: u32) {
    std::thread::sleep(Duration::from_millis(2 + u64::from(attempt) * 3));
}

/// git's `%aI`: `2024-05-01T12:34:56+02:00`.
fn iso_date(time: &git2::Time) -> String {
    let offset = time.offset_minutes();
    let local = time.seconds().saturating_add(i64::from(offset) * 60);
    let stamp = jiff::Timestamp::from_second(local)
        .map(|t| t.strftime("%Y-%m-%dT%H:%M:%S").to_string())
        .unwrap_or_else(|_| "1970-01-01T00:00:00".to_owned());
    let sign = if offset < 0 { '-' } else { '+' };
    let abs = offset.unsigned_abs();
    format!("{stamp}{sign}{:02}:{:02}", abs / 60, abs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_dates_carry_the_author_offset() {
        assert_eq!(
            iso_date(&git2::Time::new(0, 0)),
            "1970-01-01T00:00:00+00:00"
        );
        assert_eq!(
            iso_date(&git2::Time::new(1_700_000_000, 120)),
            "2023-11-15T00:13:20+02:00"
        );
        assert_eq!(
            iso_date(&git2::Time::new(1_700_000_000, -330)),
            "2023-11-14T16:43:20-05:30"
        );
    }

    #[test]
    fn storage_keys() {
        assert_eq!(snapshot_path("dev", None, "k8s"), "dev/k8s.json");
        assert_eq!(
            snapshot_path("dev", Some("shop"), "aws"),
            "dev/shop__aws.json"
        );
        assert_eq!(baseline_path("prod"), "prod/observation-baseline.json");
    }
}
