//! Borderless, aligned tables (comfy-table) for lists a person scans.

use comfy_table::{Cell, ContentArrangement, Table, presets};

/// A table with a header row and two spaces between columns, indented by `indent`.
pub fn aligned(header: Option<&[&str]>, rows: Vec<Vec<String>>, indent: usize) -> String {
    let mut table = Table::new();
    table
        .load_style(presets::NOTHING)
        .set_content_arrangement(ContentArrangement::Disabled);
    if let Some(header) = header {
        table.set_header(header.iter().map(|h| Cell::new(*h)));
    }
    for row in rows {
        table.add_row(row);
    }
    for column in table.column_iter_mut() {
        column.set_padding((0, 2));
    }
    let pad = " ".repeat(indent);
    table
        .to_string()
        .lines()
        .map(|line| format!("{pad}{}", line.trim_end()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A bordered table with a header, for reports that are tables first (whoami, show).
pub fn boxed(header: &[&str], rows: Vec<Vec<String>>) -> String {
    let mut table = Table::new();
    table
        .load_style(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Disabled);
    table.set_header(header.iter().map(|h| Cell::new(*h)));
    for row in rows {
        table.add_row(row);
    }
    table.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_tables_line_up_columns() {
        let text = aligned(
            None,
            vec![
                vec!["a".into(), "bb".into()],
                vec!["ccc".into(), "d".into()],
            ],
            2,
        );
        assert_eq!(text, "  a    bb\n  ccc  d");
    }
}
