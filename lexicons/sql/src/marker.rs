//! The ownership marker: `[chant managed-by=chant stack=<stack> env=<env>]`.
//!
//! PostgreSQL carries it as a trailer at the end of the object's COMMENT, after the
//! declared comment. SQLite has no COMMENT: the same text sits in a block comment directly
//! after the object's name in its CREATE statement (`CREATE TABLE t /* [chant …] */ (…)`),
//! the one place SQLite keeps a comment in `sqlite_schema.sql` through `ALTER TABLE`.

use chant_lexicon::OwnershipMarker;
use chant_lexicon::ownership::{ChannelKeys, MANAGED_BY_VALUE, read_marker};
use regex::Regex;
use std::collections::BTreeMap;
use std::sync::LazyLock;

/// The keys inside the bracket.
pub const SQL_OWNERSHIP_KEYS: ChannelKeys = ChannelKeys {
    managed_by: "managed-by",
    stack: "stack",
    env: "env",
};

static TRAILER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\s*\[chant((?:\s+[A-Za-z_-]+=[^\s\]]*)*)\s*\]\s*$").unwrap());

static BLOCK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"/\*\s*\[chant((?:\s+[A-Za-z_-]+=[^\s\]]*)*)\s*\]\s*\*/").unwrap()
});

/// The bracket for this stack and environment.
pub fn format_marker(marker: &OwnershipMarker) -> String {
    let mut text = format!(
        "[chant {}={MANAGED_BY_VALUE} {}={}",
        SQL_OWNERSHIP_KEYS.managed_by, SQL_OWNERSHIP_KEYS.stack, marker.stack
    );
    if let Some(env) = &marker.env {
        text.push_str(&format!(" {}={env}", SQL_OWNERSHIP_KEYS.env));
    }
    text.push(']');
    text
}

fn parse_pairs(pairs: &str) -> Option<OwnershipMarker> {
    let map: BTreeMap<&str, &str> = pairs
        .split_whitespace()
        .filter_map(|pair| pair.split_once('='))
        .collect();
    read_marker(|k| map.get(k).copied(), &SQL_OWNERSHIP_KEYS)
}

/// Split a live COMMENT into the declared comment and the marker trailer.
///
/// A comment that is only the trailer has no declared comment.
pub fn split_comment(comment: &str) -> (Option<String>, Option<OwnershipMarker>) {
    match TRAILER.captures(comment) {
        Some(caps) => {
            let marker = parse_pairs(&caps[1]);
            let whole = caps.get(0).expect("whole match");
            let declared = comment[..whole.start()].trim_end();
            let declared = (!declared.is_empty()).then(|| declared.to_owned());
            match marker {
                Some(marker) => (declared, Some(marker)),
                None => (Some(comment.to_owned()), None),
            }
        }
        None => (
            (!comment.trim().is_empty()).then(|| comment.to_owned()),
            None,
        ),
    }
}

/// The declared comment with the marker appended, as the COMMENT to write.
pub fn join_comment(declared: Option<&str>, marker: Option<&OwnershipMarker>) -> Option<String> {
    match (declared, marker) {
        (Some(d), Some(m)) => Some(format!("{d} {}", format_marker(m))),
        (None, Some(m)) => Some(format_marker(m)),
        (Some(d), None) => Some(d.to_owned()),
        (None, None) => None,
    }
}

/// The marker in a SQLite CREATE statement's block comment.
pub fn marker_in_statement(sql: &str) -> Option<OwnershipMarker> {
    BLOCK.captures(sql).and_then(|caps| parse_pairs(&caps[1]))
}

/// `/* [chant …] */`, the block comment the SQLite generator writes after a name.
pub fn block_comment(marker: &OwnershipMarker) -> String {
    format!("/* {} */", format_marker(marker))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ours() -> OwnershipMarker {
        OwnershipMarker {
            stack: "shop".into(),
            env: Some("dev".into()),
        }
    }

    #[test]
    fn the_trailer_follows_the_declared_comment() {
        let (declared, marker) =
            split_comment("All orders [chant managed-by=chant stack=shop env=dev]");
        assert_eq!(declared.as_deref(), Some("All orders"));
        assert_eq!(marker, Some(ours()));
        assert_eq!(
            join_comment(Some("All orders"), Some(&ours())).as_deref(),
            Some("All orders [chant managed-by=chant stack=shop env=dev]")
        );
        let (declared, marker) = split_comment("[chant managed-by=chant stack=shop env=dev]");
        assert_eq!((declared, marker), (None, Some(ours())));
    }

    #[test]
    fn a_foreign_bracket_is_part_of_the_comment() {
        let (declared, marker) = split_comment("legacy [chant managed-by=terraform stack=x]");
        assert_eq!(
            declared.as_deref(),
            Some("legacy [chant managed-by=terraform stack=x]")
        );
        assert_eq!(marker, None);
        assert_eq!(split_comment("plain"), (Some("plain".into()), None));
    }

    #[test]
    fn sqlite_statements_carry_a_block_comment() {
        let sql = "CREATE TABLE \"orders\" /* [chant managed-by=chant stack=shop env=dev] */ (id INTEGER)";
        assert_eq!(marker_in_statement(sql), Some(ours()));
        assert_eq!(marker_in_statement("CREATE TABLE t (a)"), None);
        assert_eq!(
            block_comment(&ours()),
            "/* [chant managed-by=chant stack=shop env=dev] */"
        );
    }
}
