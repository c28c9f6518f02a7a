//! Paths on the branch and tree editing with the object database only.

use std::collections::BTreeMap;

use git2::{FileMode, ObjectType, Oid, Repository, Tree};

use super::error::{Result, StoreError};

/// Checks one path component (a directory or file name on the branch).
fn check_component(name: &str, whole: &str) -> Result<()> {
    let invalid = |reason| {
        Err(StoreError::InvalidPath {
            path: whole.to_owned(),
            reason,
        })
    };
    if name.is_empty() {
        return invalid("empty path component");
    }
    if name == "." || name == ".." {
        return invalid("'.' and '..' are not allowed");
    }
    if name.eq_ignore_ascii_case(".git") {
        return invalid("'.git' is not allowed");
    }
    if name.contains(['\\', '\0']) {
        return invalid("backslashes and NUL are not allowed");
    }
    Ok(())
}

/// Splits and validates `<dir>/<file>`.
pub(crate) fn parse_file_path(path: &str) -> Result<(&str, &str)> {
    let Some((dir, file)) = path.split_once('/') else {
        return Err(StoreError::InvalidPath {
            path: path.to_owned(),
            reason: "expected <dir>/<file>",
        });
    };
    if file.contains('/') {
        return Err(StoreError::InvalidPath {
            path: path.to_owned(),
            reason: "expected <dir>/<file> (exactly two levels)",
        });
    }
    check_component(dir, path)?;
    check_component(file, path)?;
    Ok((dir, file))
}

/// Validates a directory name (one component).
pub(crate) fn check_dir(dir: &str) -> Result<()> {
    if dir.contains('/') {
        return Err(StoreError::InvalidPath {
            path: dir.to_owned(),
            reason: "expected a single directory name",
        });
    }
    check_component(dir, dir)
}

/// A tree entry's target: the object id and its file mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Entry {
    pub id: Oid,
    pub mode: i32,
}

impl Entry {
    pub(crate) fn blob(id: Oid) -> Self {
        Entry {
            id,
            mode: FileMode::Blob.into(),
        }
    }
}

/// Path components → new value (`None` deletes the entry).
pub(crate) type Changes = BTreeMap<Vec<String>, Option<Entry>>;

/// One change, relative to the tree level being built.
type Edit<'a> = (&'a [String], Option<Entry>);

/// Every non-tree entry of a tree, recursively, keyed by path components.
pub(crate) type Flat = BTreeMap<Vec<String>, Entry>;

/// Writes the tree obtained by applying `changes` to `base` (`None`: the empty tree) and
/// returns its id. Entries not named in `changes` keep their id and mode.
pub(crate) fn apply(
    repo: &Repository,
    base: Option<&Tree<'_>>,
    changes: &Changes,
) -> Result<Oid, git2::Error> {
    let items: Vec<Edit<'_>> = changes.iter().map(|(k, v)| (k.as_slice(), *v)).collect();
    match build(repo, base, &items)? {
        Some(id) => Ok(id),
        None => repo.treebuilder(None)?.write(),
    }
}

/// One level of [`apply`]; `None` when the resulting tree is empty.
fn build(
    repo: &Repository,
    base: Option<&Tree<'_>>,
    changes: &[Edit<'_>],
) -> Result<Option<Oid>, git2::Error> {
    let mut builder = repo.treebuilder(base)?;
    let mut nested: BTreeMap<&str, Vec<Edit<'_>>> = BTreeMap::new();
    // Leaf deletions first, then subtrees, then leaf insertions: a name that turns from a
    // file into a directory (or back) in one change set ends up as the latter.
    for (path, value) in changes {
        match (path, value) {
            ([name], None) if builder.get(name)?.is_some() => builder.remove(name)?,
            ([name, rest @ ..], _) if !rest.is_empty() => {
                nested
                    .entry(name.as_str())
                    .or_default()
                    .push((rest, *value));
            }
            _ => {}
        }
    }
    for (name, sub) in nested {
        let sub_base = match base.and_then(|t| t.get_name(name)) {
            Some(e) if e.kind() == Some(ObjectType::Tree) => Some(repo.find_tree(e.id())?),
            _ => None,
        };
        match build(repo, sub_base.as_ref(), &sub)? {
            Some(id) => {
                builder.insert(name, id, FileMode::Tree.into())?;
            }
            None if sub_base.is_some() => builder.remove(name)?,
            None => {}
        }
    }
    for (path, value) in changes {
        if let ([name], Some(entry)) = (path, value) {
            builder.insert(name.as_str(), entry.id, entry.mode)?;
        }
    }
    if builder.is_empty() {
        Ok(None)
    } else {
        builder.write().map(Some)
    }
}

/// Every non-tree entry of `tree`, recursively.
pub(crate) fn flatten(repo: &Repository, tree: Option<&Tree<'_>>) -> Result<Flat, git2::Error> {
    let mut out = Flat::new();
    if let Some(tree) = tree {
        flatten_into(repo, tree, &mut Vec::new(), &mut out)?;
    }
    Ok(out)
}

fn flatten_into(
    repo: &Repository,
    tree: &Tree<'_>,
    prefix: &mut Vec<String>,
    out: &mut Flat,
) -> Result<(), git2::Error> {
    for entry in tree.iter() {
        let name = entry.name()?.to_owned();
        prefix.push(name);
        if entry.kind() == Some(ObjectType::Tree) {
            let sub = repo.find_tree(entry.id())?;
            flatten_into(repo, &sub, prefix, out)?;
        } else {
            out.insert(
                prefix.clone(),
                Entry {
                    id: entry.id(),
                    mode: entry.filemode(),
                },
            );
        }
        prefix.pop();
    }
    Ok(())
}

/// The changes that turn `from` into `to`.
pub(crate) fn diff(from: &Flat, to: &Flat) -> Changes {
    let mut changes = Changes::new();
    for (path, entry) in to {
        if from.get(path) != Some(entry) {
            changes.insert(path.clone(), Some(*entry));
        }
    }
    for path in from.keys() {
        if !to.contains_key(path) {
            changes.insert(path.clone(), None);
        }
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_paths_must_be_two_clean_levels() {
        assert_eq!(
            parse_file_path("dev/k8s.json").unwrap(),
            ("dev", "k8s.json")
        );
        assert_eq!(
            parse_file_path("dev/shop__k8s.json").unwrap(),
            ("dev", "shop__k8s.json")
        );
        for bad in [
            "",
            "dev",
            "dev/",
            "/k8s.json",
            "a/b/c",
            "../x",
            "dev/..",
            "./x",
            ".git/x",
            "dev/.GIT",
            "a\\b/c",
            "dev/a\0b",
        ] {
            assert!(
                matches!(parse_file_path(bad), Err(StoreError::InvalidPath { .. })),
                "{bad:?} should be rejected"
            );
        }
        assert!(check_dir("dev").is_ok());
        assert!(check_dir("dev/x").is_err());
        assert!(check_dir("").is_err());
        assert!(check_dir("..").is_err());
    }

    fn path(p: &str) -> Vec<String> {
        p.split('/').map(str::to_owned).collect()
    }

    #[test]
    fn apply_edits_only_the_named_entries_and_diff_inverts_flatten() {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init_bare(dir.path()).unwrap();
        let a = repo.blob(b"a\n").unwrap();
        let b = repo.blob(b"b\n").unwrap();
        let c = repo.blob(b"c\n").unwrap();

        let mut changes = Changes::new();
        changes.insert(path("dev/a.json"), Some(Entry::blob(a)));
        changes.insert(path("dev/b.json"), Some(Entry::blob(b)));
        changes.insert(path("prod/a.json"), Some(Entry::blob(a)));
        changes.insert(path("README"), Some(Entry::blob(c)));
        changes.insert(path("x/y/z"), Some(Entry::blob(c)));
        let t1 = repo
            .find_tree(apply(&repo, None, &changes).unwrap())
            .unwrap();
        let f1 = flatten(&repo, Some(&t1)).unwrap();
        assert_eq!(f1.len(), 5);

        // Replace one, delete one (its directory empties and disappears), keep the rest.
        let mut changes = Changes::new();
        changes.insert(path("dev/a.json"), Some(Entry::blob(c)));
        changes.insert(path("prod/a.json"), None);
        let t2 = repo
            .find_tree(apply(&repo, Some(&t1), &changes).unwrap())
            .unwrap();
        assert!(t2.get_name("prod").is_none());
        let f2 = flatten(&repo, Some(&t2)).unwrap();
        assert_eq!(f2[&path("dev/a.json")].id, c);
        assert_eq!(f2[&path("dev/b.json")].id, b);
        assert_eq!(f2[&path("README")].id, c);
        assert_eq!(f2[&path("x/y/z")].id, c);
        assert_eq!(diff(&f1, &f2), changes);

        // Applying the diff to the original reproduces the target tree exactly.
        let t3 = apply(&repo, Some(&t1), &diff(&f1, &f2)).unwrap();
        assert_eq!(t3, t2.id());

        // Deleting everything yields the empty tree; a file can become a directory.
        let mut changes = diff(&f2, &Flat::new());
        let empty = apply(&repo, Some(&t2), &changes).unwrap();
        assert_eq!(repo.find_tree(empty).unwrap().len(), 0);
        changes.clear();
        changes.insert(path("README"), None);
        changes.insert(path("README/inner"), Some(Entry::blob(a)));
        let t4 = repo
            .find_tree(apply(&repo, Some(&t2), &changes).unwrap())
            .unwrap();
        assert_eq!(
            t4.get_name("README").unwrap().kind(),
            Some(ObjectType::Tree)
        );
    }
}
