//! How a value is shown in a one-line change.

use serde_json::Value;

const LIMIT: usize = 60;

/// `<unset>` for nothing; strings as they are; everything else as JSON; long values cut.
pub fn format_value(value: Option<&Value>) -> String {
    let text = match value {
        None => return "<unset>".to_owned(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    };
    if text.chars().count() > LIMIT {
        let cut: String = text.chars().take(LIMIT - 3).collect();
        format!("{cut}...")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_are_cut_at_sixty_characters() {
        assert_eq!(format_value(None), "<unset>");
        assert_eq!(format_value(Some(&json!("x"))), "x");
        assert_eq!(format_value(Some(&json!({"a": 1}))), r#"{"a":1}"#);
        let long = "y".repeat(80);
        assert_eq!(format_value(Some(&json!(long))).len(), 60);
    }
}
