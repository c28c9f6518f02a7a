//! Fetch, push with a lease, and re-applying local writes after losing a race.

use std::cell::{Cell, RefCell};
use std::io::Write as _;
use std::path::{Path, PathBuf};

use git2::{
    AutotagOption, Direction, ErrorCode, FetchOptions, Oid, PushOptions, RemoteCallbacks,
    Repository, Sort,
};

use super::error::{Result, StoreError};
use super::url::{local_remote_path, mask_credentials};
use super::{
    BRANCH, BRANCH_REF, CAS_ATTEMPTS, LifecycleStore, backoff, cas_ref, is_cas_conflict,
    ref_target, tree,
};

/// What [`LifecycleStore::fetch`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchOutcome {
    /// The repository has no remote; the store is local only.
    NoRemote,
    /// The remote has no `chant/lifecycle` yet (the first push will create it). A stale
    /// remote-tracking ref, if any, was removed.
    RemoteBranchMissing { remote: String },
    /// Local and remote already agree.
    UpToDate { remote: String, commit: String },
    /// The local branch was behind (or absent) and now equals the remote.
    FastForwarded {
        remote: String,
        from: Option<String>,
        to: String,
    },
    /// The local branch holds commits the remote lacks and nothing the remote has that
    /// it lacks; it was kept (the next push publishes them).
    LocalAhead {
        remote: String,
        local: String,
        remote_tip: String,
    },
}

/// What [`LifecycleStore::push`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PushOutcome {
    /// The repository has no remote; the snapshot stays local.
    LocalOnly,
    /// There is no local branch to push.
    NothingToPush { remote: String },
    /// The remote already held the local tip.
    UpToDate { remote: String, commit: String },
    /// The remote branch now points at `commit`.
    Pushed { remote: String, commit: String },
}

/// The remote the store syncs with.
struct Target {
    name: String,
    /// The remote URL with userinfo masked, for messages.
    masked_url: String,
    /// Set when the remote is a repository on this filesystem.
    local_path: Option<PathBuf>,
}

impl Target {
    fn transport_error(&self, op: &'static str, e: &git2::Error) -> StoreError {
        StoreError::Remote {
            op,
            remote: self.name.clone(),
            url: self.masked_url.clone(),
            message: mask_credentials(e.message()),
        }
    }
}

fn non_zero(id: Oid) -> Option<Oid> {
    (!id.is_zero()).then_some(id)
}

fn show(id: Option<Oid>) -> Option<String> {
    id.map(|id| id.to_string())
}

impl LifecycleStore {
    /// The remote the store syncs with: the first of `git remote` (sorted by name), like
    /// the reference. `None` when the repository has no remote.
    pub fn remote_name(&self) -> Result<Option<String>> {
        let names = self
            .repo
            .remotes()
            .map_err(StoreError::git("listing remotes"))?;
        let mut names: Vec<String> = names
            .iter_bytes()
            .filter_map(|name| std::str::from_utf8(name).ok())
            .map(str::to_owned)
            .collect();
        names.sort();
        Ok(names.into_iter().next())
    }

    fn tracking_ref(remote: &str) -> String {
        format!("refs/remotes/{remote}/{BRANCH}")
    }

    /// The remote-tracking tip as last fetched or pushed (the push lease).
    pub fn remote_tracking_tip(&self) -> Result<Option<String>> {
        match self.remote_name()? {
            Some(remote) => Ok(show(ref_target(&self.repo, &Self::tracking_ref(&remote))?)),
            None => Ok(None),
        }
    }

    fn target(&self, direction: Direction) -> Result<Option<Target>> {
        let Some(name) = self.remote_name()? else {
            return Ok(None);
        };
        let remote = self
            .repo
            .find_remote(&name)
            .map_err(StoreError::git(format!("reading remote {name}")))?;
        let url = match direction {
            Direction::Push => remote.pushurl_bytes().unwrap_or(remote.url_bytes()),
            Direction::Fetch => remote.url_bytes(),
        };
        let url = String::from_utf8_lossy(url).into_owned();
        let base = self.repo.workdir().unwrap_or(self.repo.path());
        Ok(Some(Target {
            masked_url: mask_credentials(&url),
            local_path: local_remote_path(&url, base),
            name,
        }))
    }

    /// An un-named remote for a local path (absolute, so the process directory does not
    /// matter), or the configured remote.
    fn git_remote(&self, target: &Target, op: &'static str) -> Result<git2::Remote<'_>> {
        let result = match &target.local_path {
            Some(path) => match path.to_str() {
                Some(path) => self.repo.remote_anonymous(path),
                None => Err(git2::Error::from_str("the remote path is not UTF-8")),
            },
            None => self.repo.find_remote(&target.name),
        };
        result.map_err(|e| target.transport_error(op, &e))
    }

    /// "Fetch before read": brings the remote's `chant/lifecycle` into
    /// `refs/remotes/<remote>/chant/lifecycle` and fast-forwards the local branch when it
    /// is behind (or creates it). A local branch that is ahead is kept. When both sides
    /// hold commits the other lacks, the remote-tracking ref is still updated (so the
    /// next push leases against the real remote) and [`StoreError::Diverged`] is
    /// returned; resolve it with [`rebase_onto_remote`](Self::rebase_onto_remote) or
    /// [`reset_to_remote`](Self::reset_to_remote).
    pub fn fetch(&self) -> Result<FetchOutcome> {
        let Some(target) = self.target(Direction::Fetch)? else {
            return Ok(FetchOutcome::NoRemote);
        };
        let tracking = Self::tracking_ref(&target.name);
        let found = {
            let mut remote = self.git_remote(&target, "fetch")?;
            let mut connection = remote
                .connect_auth(Direction::Fetch, None, None)
                .map_err(|e| target.transport_error("fetch", &e))?;
            let found = connection
                .list()
                .map_err(|e| target.transport_error("fetch", &e))?
                .iter()
                .find(|head| head.name() == BRANCH_REF)
                .map(|head| head.oid());
            if found.is_some() {
                let mut options = FetchOptions::new();
                options.download_tags(AutotagOption::None);
                connection
                    .remote()
                    .download(&[format!("+{BRANCH_REF}:{tracking}")], Some(&mut options))
                    .map_err(|e| target.transport_error("fetch", &e))?;
            }
            found
        };

        let Some(remote_tip) = found else {
            if let Ok(mut stale) = self.repo.find_reference(&tracking) {
                stale
                    .delete()
                    .map_err(StoreError::git(format!("removing {tracking}")))?;
            }
            return Ok(FetchOutcome::RemoteBranchMissing {
                remote: target.name,
            });
        };
        self.repo
            .find_commit(remote_tip)
            .map_err(StoreError::git(format!(
                "reading {remote_tip} fetched from {}",
                target.name
            )))?;
        self.repo
            .reference(
                &tracking,
                remote_tip,
                true,
                &format!("chant: fetch {BRANCH} from {}", target.name),
            )
            .map_err(StoreError::git(format!("updating {tracking}")))?;

        for attempt in 0..CAS_ATTEMPTS {
            let local = self.tip_oid()?;
            let outcome = match local {
                Some(local) if local == remote_tip => {
                    return Ok(FetchOutcome::UpToDate {
                        remote: target.name,
                        commit: local.to_string(),
                    });
                }
                Some(local) if self.descends(remote_tip, local)? => FetchOutcome::FastForwarded {
                    remote: target.name.clone(),
                    from: Some(local.to_string()),
                    to: remote_tip.to_string(),
                },
                Some(local) if self.descends(local, remote_tip)? => {
                    return Ok(FetchOutcome::LocalAhead {
                        remote: target.name,
                        local: local.to_string(),
                        remote_tip: remote_tip.to_string(),
                    });
                }
                Some(local) => {
                    return Err(StoreError::Diverged {
                        remote: target.name,
                        local: local.to_string(),
                        remote_tip: remote_tip.to_string(),
                    });
                }
                None => FetchOutcome::FastForwarded {
                    remote: target.name.clone(),
                    from: None,
                    to: remote_tip.to_string(),
                },
            };
            let reflog = format!("chant: fast-forward to {}/{BRANCH}", target.name);
            match cas_ref(&self.repo, BRANCH_REF, remote_tip, local, &reflog) {
                Ok(()) => return Ok(outcome),
                Err(e) if is_cas_conflict(&e) => backoff(attempt),
                Err(e) => return Err(StoreError::git(format!("fast-forwarding {BRANCH}"))(e)),
            }
        }
        Err(StoreError::ConcurrentUpdate)
    }

    /// Whether `commit` is `ancestor` or descends from it.
    fn descends(&self, commit: Oid, ancestor: Oid) -> Result<bool> {
        if commit == ancestor {
            return Ok(true);
        }
        self.repo
            .graph_descendant_of(commit, ancestor)
            .map_err(StoreError::git(format!(
                "comparing {commit:.7} with {ancestor:.7}"
            )))
    }

    /// Publishes the local branch with force-with-lease semantics: the remote must still
    /// hold what was last fetched (`refs/remotes/<remote>/chant/lifecycle`; absent ⇒ the
    /// remote branch must not exist), and the update must be a fast-forward of it.
    /// Otherwise nothing changes remotely and [`StoreError::Stale`] is returned.
    ///
    /// The lease is checked against the remote's value at the moment of the update:
    /// for a repository on this filesystem by an atomic compare-and-swap of its ref; over
    /// the network by checking the advertised value on the push connection itself and
    /// sending a non-force update, which the receiving side applies only if the ref
    /// still has that value. After a successful push the remote-tracking ref is updated.
    pub fn push(&self) -> Result<PushOutcome> {
        let Some(target) = self.target(Direction::Push)? else {
            return Ok(PushOutcome::LocalOnly);
        };
        let Some(local) = self.tip_oid()? else {
            return Ok(PushOutcome::NothingToPush {
                remote: target.name,
            });
        };
        let tracking = Self::tracking_ref(&target.name);
        let expected = ref_target(&self.repo, &tracking)?;
        if let Some(expected) = expected
            && !self.descends(local, expected)?
        {
            // Publishing would drop commits the remote is known to hold.
            return Err(StoreError::Diverged {
                remote: target.name,
                local: local.to_string(),
                remote_tip: expected.to_string(),
            });
        }
        let pushed = match &target.local_path {
            Some(path) => self.push_local(&target, path, local, expected)?,
            None => self.push_network(&target, local, expected)?,
        };
        self.repo
            .reference(
                &tracking,
                local,
                true,
                &format!("chant: push {BRANCH} to {}", target.name),
            )
            .map_err(StoreError::git(format!("updating {tracking}")))?;
        let commit = local.to_string();
        Ok(if pushed {
            PushOutcome::Pushed {
                remote: target.name,
                commit,
            }
        } else {
            PushOutcome::UpToDate {
                remote: target.name,
                commit,
            }
        })
    }

    /// Push to a repository on this filesystem: copy the missing objects into its object
    /// database, then compare-and-swap its ref. Returns `false` when it was up to date.
    ///
    /// Not libgit2's push: its local transport re-checks nothing when it writes the remote
    /// ref (it overwrites an existing ref unconditionally), so a writer that moved the ref
    /// between our check and the write would be silently lost.
    fn push_local(
        &self,
        target: &Target,
        path: &Path,
        local: Oid,
        expected: Option<Oid>,
    ) -> Result<bool> {
        let remote = Repository::open(path).map_err(|e| target.transport_error("push", &e))?;
        if !remote.is_bare()
            && let Ok(head) = remote.find_reference("HEAD")
            && head.symbolic_target_bytes() == Some(BRANCH_REF.as_bytes())
        {
            return Err(StoreError::PushRejected {
                remote: target.name.clone(),
                url: target.masked_url.clone(),
                reason: format!("{BRANCH} is checked out in that repository's work tree"),
            });
        }
        let stale = |found: Option<Oid>| StoreError::Stale {
            remote: target.name.clone(),
            expected: show(expected),
            found: show(found),
        };
        let found = ref_target(&remote, BRANCH_REF)?;
        if found == Some(local) {
            return Ok(false);
        }
        if found != expected {
            return Err(stale(found));
        }

        // Objects first (a pack of everything reachable from the local tip and not from
        // the remote tip), so the ref never points at something missing.
        let context = || format!("copying {BRANCH} objects to {}", target.name);
        let mut walk = self.repo.revwalk().map_err(StoreError::git(context()))?;
        walk.push(local).map_err(StoreError::git(context()))?;
        if let Some(found) = found {
            walk.hide(found).map_err(StoreError::git(context()))?;
        }
        let mut builder = self
            .repo
            .packbuilder()
            .map_err(StoreError::git(context()))?;
        builder
            .insert_walk(&mut walk)
            .map_err(StoreError::git(context()))?;
        if builder.object_count() > 0 {
            let mut pack = git2::Buf::new();
            builder
                .write_buf(&mut pack)
                .map_err(StoreError::git(context()))?;
            let odb = remote
                .odb()
                .map_err(|e| target.transport_error("push", &e))?;
            let mut writer = odb
                .packwriter()
                .map_err(|e| target.transport_error("push", &e))?;
            writer.write_all(&pack).map_err(|e| {
                target.transport_error("push", &git2::Error::from_str(&e.to_string()))
            })?;
            writer
                .commit()
                .map_err(|e| target.transport_error("push", &e))?;
        }

        let reflog = format!("push: {BRANCH}");
        for attempt in 0..CAS_ATTEMPTS {
            match cas_ref(&remote, BRANCH_REF, local, expected, &reflog) {
                Ok(()) => return Ok(true),
                Err(e) if e.code() == ErrorCode::Locked => backoff(attempt),
                Err(e) if is_cas_conflict(&e) => {
                    return Err(stale(ref_target(&remote, BRANCH_REF).unwrap_or(None)));
                }
                Err(e) => return Err(target.transport_error("push", &e)),
            }
        }
        // Still locked after every retry: someone else is updating it right now.
        Err(stale(ref_target(&remote, BRANCH_REF).unwrap_or(None)))
    }

    /// Push over a network transport. The lease is checked in the push negotiation (on
    /// the very connection that sends the update); the update is non-force, so the
    /// receiving side refuses it if the ref moved after it was advertised.
    fn push_network(&self, target: &Target, local: Oid, expected: Option<Oid>) -> Result<bool> {
        let mut remote = self.git_remote(target, "push")?;
        let advertised: Cell<Option<Option<Oid>>> = Cell::new(None);
        let lease_broken = Cell::new(false);
        let refused: RefCell<Option<String>> = RefCell::new(None);
        let result = {
            let mut callbacks = RemoteCallbacks::new();
            callbacks.push_negotiation(|updates| {
                for update in updates {
                    if update.dst_refname_bytes() == BRANCH_REF.as_bytes() {
                        let current = non_zero(update.src());
                        advertised.set(Some(current));
                        if current != expected {
                            lease_broken.set(true);
                            return Err(git2::Error::from_str(
                                "the remote branch moved since it was fetched",
                            ));
                        }
                    }
                }
                Ok(())
            });
            callbacks.push_update_reference(|refname, status| {
                if refname == BRANCH_REF
                    && let Some(status) = status
                {
                    *refused.borrow_mut() = Some(status.to_owned());
                }
                Ok(())
            });
            let mut options = PushOptions::new();
            options.remote_callbacks(callbacks);
            remote.push(&[format!("{BRANCH_REF}:{BRANCH_REF}")], Some(&mut options))
        };
        let stale = |found: Option<Option<Oid>>| StoreError::Stale {
            remote: target.name.clone(),
            expected: show(expected),
            found: found.flatten().map(|id| id.to_string()),
        };
        if lease_broken.get() {
            return Err(stale(advertised.get()));
        }
        let refusal = match result {
            Err(e) => {
                let found = self.remote_tip(target).ok();
                if e.code() == ErrorCode::NotFastForward || found.is_some_and(|f| f != expected) {
                    return Err(stale(found));
                }
                return Err(target.transport_error("push", &e));
            }
            Ok(()) => refused.into_inner(),
        };
        if let Some(reason) = refusal {
            let found = self.remote_tip(target).ok();
            if found.is_some_and(|f| f != expected && f != Some(local)) {
                return Err(stale(found));
            }
            return Err(StoreError::PushRejected {
                remote: target.name.clone(),
                url: target.masked_url.clone(),
                reason: mask_credentials(&reason),
            });
        }
        // No update was negotiated when the remote already held the local tip.
        Ok(advertised.get().is_some())
    }

    /// The remote's current tip, read with a fresh connection.
    fn remote_tip(&self, target: &Target) -> Result<Option<Oid>> {
        let mut remote = self.git_remote(target, "fetch")?;
        let connection = remote
            .connect_auth(Direction::Fetch, None, None)
            .map_err(|e| target.transport_error("fetch", &e))?;
        let heads = connection
            .list()
            .map_err(|e| target.transport_error("fetch", &e))?;
        Ok(heads
            .iter()
            .find(|h| h.name() == BRANCH_REF)
            .map(|h| h.oid()))
    }

    /// Re-applies the local commits the remote lacks on top of the remote-tracking tip
    /// (as last fetched), oldest first, each as a new commit with its original message
    /// and author, then moves the local branch there. Each commit re-applies exactly the
    /// files it changed (later writers win per file, every other file is the remote's).
    /// A commit whose changes are already on the remote is dropped. Returns the new
    /// commit ids (empty when there was nothing to re-apply).
    ///
    /// This is how the loser of a push race publishes its snapshot: `fetch` (which reports
    /// [`StoreError::Diverged`]), `rebase_onto_remote`, `push`.
    pub fn rebase_onto_remote(&self) -> Result<Vec<String>> {
        let Some(remote) = self.remote_name()? else {
            return Ok(Vec::new());
        };
        let Some(upstream) = ref_target(&self.repo, &Self::tracking_ref(&remote))? else {
            return Ok(Vec::new());
        };
        let context = || format!("re-applying local {BRANCH} commits onto {remote}/{BRANCH}");
        for attempt in 0..CAS_ATTEMPTS {
            let local = self.tip_oid()?;
            let (new_tip, created) = match local {
                None => (upstream, Vec::new()),
                Some(local) if self.descends(local, upstream)? => return Ok(Vec::new()),
                Some(local) if self.descends(upstream, local)? => (upstream, Vec::new()),
                Some(local) => self
                    .replay(local, upstream)
                    .map_err(StoreError::git(context()))?,
            };
            let reflog = format!("chant: rebase onto {remote}/{BRANCH}");
            match cas_ref(&self.repo, BRANCH_REF, new_tip, local, &reflog) {
                Ok(()) => return Ok(created.iter().map(Oid::to_string).collect()),
                Err(e) if is_cas_conflict(&e) => backoff(attempt),
                Err(e) => return Err(StoreError::git(context())(e)),
            }
        }
        Err(StoreError::ConcurrentUpdate)
    }

    /// Replays the commits reachable from `local` and not from `upstream` onto
    /// `upstream`; returns the new tip and the commits created.
    fn replay(&self, local: Oid, upstream: Oid) -> Result<(Oid, Vec<Oid>), git2::Error> {
        let repo = &self.repo;
        let mut walk = repo.revwalk()?;
        walk.set_sorting(Sort::TOPOLOGICAL | Sort::REVERSE)?;
        walk.push(local)?;
        walk.hide(upstream)?;
        let committer = match repo.signature() {
            Ok(sig) => sig,
            Err(_) => git2::Signature::now("chant", "chant@localhost")?,
        };
        let mut base = repo.find_commit(upstream)?;
        let mut created = Vec::new();
        for id in walk {
            let commit = repo.find_commit(id?)?;
            let before = match commit.parents().next() {
                Some(parent) => tree::flatten(repo, Some(&parent.tree()?))?,
                None => tree::Flat::new(),
            };
            let after = tree::flatten(repo, Some(&commit.tree()?))?;
            let base_tree = base.tree()?;
            let new_tree = tree::apply(repo, Some(&base_tree), &tree::diff(&before, &after))?;
            if new_tree == base_tree.id() {
                continue;
            }
            let new_tree = repo.find_tree(new_tree)?;
            let message = String::from_utf8_lossy(commit.message_raw_bytes()).into_owned();
            let new = repo.commit(
                None,
                &commit.author(),
                &committer,
                &message,
                &new_tree,
                &[&base],
            )?;
            created.push(new);
            base = repo.find_commit(new)?;
        }
        Ok((base.id(), created))
    }

    /// Drops the local commits the remote lacks: moves the local branch to the
    /// remote-tracking tip (as last fetched). Returns the new local tip; with no remote or
    /// no remote branch nothing changes.
    pub fn reset_to_remote(&self) -> Result<Option<String>> {
        let Some(remote) = self.remote_name()? else {
            return self.tip();
        };
        let Some(upstream) = ref_target(&self.repo, &Self::tracking_ref(&remote))? else {
            return self.tip();
        };
        for attempt in 0..CAS_ATTEMPTS {
            let local = self.tip_oid()?;
            let reflog = format!("chant: reset to {remote}/{BRANCH}");
            match cas_ref(&self.repo, BRANCH_REF, upstream, local, &reflog) {
                Ok(()) => return Ok(Some(upstream.to_string())),
                Err(e) if is_cas_conflict(&e) => backoff(attempt),
                Err(e) => {
                    return Err(StoreError::git(format!(
                        "resetting {BRANCH} to {remote}/{BRANCH}"
                    ))(e));
                }
            }
        }
        Err(StoreError::ConcurrentUpdate)
    }
}
