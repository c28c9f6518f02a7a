//! The plan, for people: a summary line, then one section per action.

use crate::lifecycle::change_set::{Action, ChangeSetEntry, summarize};
use crate::output::{Output, Tone};
use crate::render::table::aligned;
use crate::render::value::format_value;

pub fn heading(action: Action) -> &'static str {
    match action {
        Action::Create => "CREATE (declared; observed absent)",
        Action::Update => "UPDATE (declared; differs from what is live)",
        Action::Delete => "DELETE (live, this project's, no longer declared)",
        Action::Adopt => "ADOPT (live, not declared, not this project's: never deleted)",
        Action::Runtime => {
            "RUNTIME (owned by a declared resource; not drift, never a delete/adopt candidate)"
        }
        Action::Noop => "NOOP",
        Action::Unobserved => {
            "UNOBSERVED (declared; chant could not read live state — no action proposed)"
        }
    }
}

fn symbol(action: Action) -> &'static str {
    match action {
        Action::Create => "+",
        Action::Update => "~",
        Action::Delete => "-",
        Action::Adopt => "=",
        Action::Runtime => "·",
        Action::Noop => " ",
        Action::Unobserved => "?",
    }
}

fn tone(action: Action) -> Tone {
    match action {
        Action::Create => Tone::Green,
        Action::Delete => Tone::Red,
        Action::Unobserved => Tone::Amber,
        _ => Tone::Bold,
    }
}

/// `Plan for dev: 1 create, 0 update, …, 1 unobserved`
pub fn summary_line(env: &str, entries: &[ChangeSetEntry]) -> String {
    let counts = summarize(entries);
    let parts: Vec<String> = Action::ORDER
        .iter()
        .map(|a| format!("{} {}", counts[a], a))
        .collect();
    format!("Plan for {env}: {}", parts.join(", "))
}

fn note(entry: &ChangeSetEntry) -> String {
    let mut parts = Vec::new();
    if let Some(reason) = entry.unobserved_reason {
        let mut text = reason.text().to_owned();
        if let Some(detail) = &entry.unobserved_detail {
            text.push_str(&format!(": {detail}"));
        }
        parts.push(text);
    }
    if let Some(owner) = &entry.runtime_owner {
        parts.push(format!("owned by {owner}"));
    }
    if let Some(verdict) = &entry.disruption {
        let mut text = format!("disruption: {}", verdict.disruption.as_str());
        if let Some(because) = &verdict.because {
            text.push_str(&format!(" ({because})"));
        }
        parts.push(text);
    }
    if let Some(queried) = &entry.queried
        && entry.action == Action::Unobserved
    {
        parts.push(format!("queried {queried}"));
    }
    parts.join(" — ")
}

pub fn render(env: &str, entries: &[ChangeSetEntry], output: &Output) -> String {
    let sections: Vec<(Action, Vec<&ChangeSetEntry>)> = Action::ORDER
        .iter()
        .map(|a| {
            (
                *a,
                entries
                    .iter()
                    .filter(|e| e.action == *a)
                    .collect::<Vec<_>>(),
            )
        })
        .filter(|(_, section)| !section.is_empty())
        .collect();
    // One table for every row, so columns line up across sections.
    let rows = sections
        .iter()
        .flat_map(|(action, section)| section.iter().map(move |e| row(*action, e)))
        .collect();
    let table = aligned(None, rows, 2);
    let mut lines = table.lines();
    let mut out = vec![output.paint(&summary_line(env, entries), Tone::Bold)];
    for (action, section) in &sections {
        out.push(String::new());
        out.push(output.paint(heading(*action), tone(*action)));
        for entry in section {
            out.push(lines.next().unwrap_or_default().to_owned());
            for delta in &entry.deltas {
                out.push(format!(
                    "      {}: {} → {}",
                    delta.path,
                    format_value(delta.old_value.as_ref()),
                    format_value(delta.new_value.as_ref())
                ));
            }
        }
    }
    out.join("\n")
}

fn row(action: Action, entry: &ChangeSetEntry) -> Vec<String> {
    let ownership = match entry.ownership {
        chant_lexicon::Ownership::Unknown => String::new(),
        other => format!("[{other}]"),
    };
    vec![
        symbol(action).to_owned(),
        entry.name.clone(),
        entry.entity_type.clone().unwrap_or_default(),
        entry.lexicon.clone(),
        ownership,
        note(entry),
    ]
}
