//! Remote URL handling: credential masking and recognising local (path / `file://`)
//! remotes, which the store pushes to itself with a compare-and-swap.

use std::path::{Path, PathBuf};

/// Replaces the userinfo of every `scheme://userinfo@host` in `text` with `***`.
///
/// Applied to every URL and every transport message the store puts into an error, so a
/// token embedded in a remote URL (`https://TOKEN@host/repo.git`) never reaches output.
pub(crate) fn mask_credentials(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find("://") {
        let (head, tail) = rest.split_at(pos + 3);
        out.push_str(head);
        // The authority ends at the first path/query/fragment delimiter or whitespace/quote.
        let end = tail
            .find(|c: char| {
                matches!(c, '/' | '?' | '#' | '\'' | '"' | '<' | '>') || c.is_whitespace()
            })
            .unwrap_or(tail.len());
        let authority = &tail[..end];
        match authority.rfind('@') {
            Some(at) => {
                out.push_str("***@");
                out.push_str(&authority[at + 1..]);
            }
            None => out.push_str(authority),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// The filesystem path of a local remote, when `url` names one.
///
/// Mirrors how libgit2 picks its local transport: a `file://` URL, or a string without a
/// scheme that names an existing directory. Relative paths are resolved against `base`
/// (the repository's top level), as git does.
pub(crate) fn local_remote_path(url: &str, base: &Path) -> Option<PathBuf> {
    if let Some(rest) = url.strip_prefix("file://") {
        // file:///abs/path or file://localhost/abs/path
        let path = rest.strip_prefix("localhost").unwrap_or(rest);
        if !path.starts_with('/') {
            return None;
        }
        return Some(PathBuf::from(percent_decode(path)?));
    }
    if url.contains("://") {
        return None;
    }
    let path = Path::new(url);
    let path = if path.is_absolute() {
        path.to_path_buf()
    } else {
        base.join(path)
    };
    path.is_dir().then_some(path)
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_userinfo_in_urls_and_in_free_text() {
        assert_eq!(
            mask_credentials("https://user:s3cret@example.com/repo.git"),
            "https://***@example.com/repo.git"
        );
        assert_eq!(
            mask_credentials("https://TOKEN@example.com"),
            "https://***@example.com"
        );
        assert_eq!(
            mask_credentials("failed to connect to 'http://a:b@h:8080/x' and git://h/y"),
            "failed to connect to 'http://***@h:8080/x' and git://h/y"
        );
        assert_eq!(mask_credentials("no url here"), "no url here");
        assert_eq!(
            mask_credentials("git@github.com:o/r.git"),
            "git@github.com:o/r.git"
        );
        // A password containing '@' is masked as a whole.
        assert_eq!(
            mask_credentials("https://u:p@ss@host/r"),
            "https://***@host/r"
        );
    }

    #[test]
    fn recognises_local_remotes() {
        let dir = tempfile::tempdir().unwrap();
        let abs = dir.path().to_str().unwrap().to_owned();
        assert_eq!(
            local_remote_path(&abs, Path::new("/")),
            Some(dir.path().to_path_buf())
        );
        assert_eq!(
            local_remote_path(&format!("file://{abs}"), Path::new("/")),
            Some(dir.path().to_path_buf())
        );
        assert_eq!(
            local_remote_path("file:///tmp/a%20b", Path::new("/")),
            Some(PathBuf::from("/tmp/a b"))
        );
        let parent = dir.path().parent().unwrap();
        let name = dir.path().file_name().unwrap().to_str().unwrap();
        assert_eq!(
            local_remote_path(name, parent),
            Some(dir.path().to_path_buf())
        );
        assert_eq!(
            local_remote_path("https://example.com/r.git", Path::new("/")),
            None
        );
        assert_eq!(
            local_remote_path("git@example.com:r.git", Path::new("/")),
            None
        );
        assert_eq!(local_remote_path("does-not-exist", dir.path()), None);
    }
}
