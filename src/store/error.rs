//! The store's error type.

use std::path::PathBuf;

use super::BRANCH;

/// Everything that can go wrong reading or writing the `chant/lifecycle` branch.
///
/// Messages name the branch, the path and the remote involved. Remote URLs are always
/// masked (`scheme://***@host/…`) and messages coming back from a transport are scrubbed
/// of URL userinfo before they are stored here, so no variant can carry a credential.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The project directory is not inside a git repository. Commands that only read the
    /// live side (`diff --live`, `plan`) carry on without a store; the others need one.
    #[error(
        "{} is not inside a git repository — the {BRANCH} branch lives in the project's repository (run `git init` first)",
        path.display()
    )]
    NotARepository { path: PathBuf },

    /// A repository was found but could not be opened.
    #[error("cannot open the git repository for {}: {source}", path.display())]
    Open {
        path: PathBuf,
        #[source]
        source: git2::Error,
    },

    /// A path that is not `<dir>/<file>` (or a directory name that is not one component).
    #[error("invalid {BRANCH} path {path:?}: {reason}")]
    InvalidPath { path: String, reason: &'static str },

    /// `write` was called with no files.
    #[error("nothing to write to {BRANCH}: no files were given")]
    NothingToWrite,

    /// A revision (`--between A B`) that does not resolve to a commit or tree.
    #[error("unknown revision {rev:?} for {BRANCH}: {reason}")]
    UnknownRevision { rev: String, reason: String },

    /// A stored file that is not UTF-8 text.
    #[error("{rev}:{path} on {BRANCH} is not UTF-8 text")]
    NotUtf8 { rev: String, path: String },

    /// The remote branch moved after this run last fetched it: another writer pushed
    /// first. The lease (the remote-tracking ref as last fetched) no longer matches.
    #[error("Another snapshot completed for {BRANCH} after this run started")]
    Stale {
        /// The remote this push went to.
        remote: String,
        /// The remote tip this run expected (`None`: expected the branch not to exist).
        expected: Option<String>,
        /// The remote tip found when the push was refused (`None`: absent, or it could
        /// not be read again after the refusal).
        found: Option<String>,
    },

    /// Local and remote `chant/lifecycle` each hold commits the other lacks (a write here
    /// was never pushed, and someone else pushed in the meantime).
    #[error(
        "local {BRANCH} ({local:.7}) and {remote}/{BRANCH} ({remote_tip:.7}) have diverged: each holds snapshots the other lacks (fetch, then re-apply the local snapshots on top of the remote ones)"
    )]
    Diverged {
        remote: String,
        local: String,
        remote_tip: String,
    },

    /// Another process on this machine kept moving the local branch while we tried to
    /// move it (compare-and-swap retries exhausted).
    #[error("local {BRANCH} was updated by another process during this operation; retry")]
    ConcurrentUpdate,

    /// A transport failure talking to the remote (connect, list, transfer).
    #[error("{op} of {BRANCH} with remote {remote} ({url}) failed: {message}")]
    Remote {
        /// `fetch` or `push`.
        op: &'static str,
        remote: String,
        /// The remote URL with any userinfo masked.
        url: String,
        /// The transport's message with any URL userinfo masked.
        message: String,
    },

    /// The remote refused the update for a reason other than a moved branch (a hook, a
    /// protected ref, a non-bare checkout of the branch, …).
    #[error("remote {remote} ({url}) refused the push of {BRANCH}: {reason}")]
    PushRejected {
        remote: String,
        /// The remote URL with any userinfo masked.
        url: String,
        reason: String,
    },

    /// Any other git failure, with what we were doing at the time.
    #[error("git error while {context}: {source}")]
    Git {
        context: String,
        #[source]
        source: git2::Error,
    },
}

impl StoreError {
    pub(crate) fn git(context: impl Into<String>) -> impl FnOnce(git2::Error) -> StoreError {
        let context = context.into();
        move |source| StoreError::Git { context, source }
    }
}

/// Shorthand for results in this module.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;
