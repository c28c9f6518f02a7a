//! Entity names and types, and terraform instance addresses folded onto the block that
//! declares them.
//!
//! A chant entity is one HCL block: `network/aws_vpc.main`, never an instance of it. State
//! and `live-plan` rows are instances (`aws_subnet.a[0]`, `module.vpc["x"].aws_subnet.a`),
//! so every row is parsed back to its block before it is matched.

/// `<root>/<address>`.
pub fn entity_name(root: &str, address: &str) -> String {
    format!("{root}/{address}")
}

/// The root and the address of an entity name.
pub fn split_entity(name: &str) -> Option<(&str, &str)> {
    name.split_once('/')
}

pub const TYPE_PREFIX: &str = "Terraform::";
pub const MODULE_TYPE: &str = "Terraform::Module";
pub const PROVIDER_TYPE: &str = "Terraform::Provider";
pub const VARIABLE_TYPE: &str = "Terraform::Variable";
pub const OUTPUT_TYPE: &str = "Terraform::Output";
pub const LOCALS_TYPE: &str = "Terraform::Locals";
pub const SETTINGS_TYPE: &str = "Terraform::Settings";
pub const RESOURCE_KIND: &str = "Terraform::Resource";

/// Is a resource managed, or a data source?
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Managed,
    Data,
}

impl Mode {
    pub fn from_state(mode: &str) -> Mode {
        if mode == "data" {
            Mode::Data
        } else {
            Mode::Managed
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Managed => "managed",
            Mode::Data => "data",
        }
    }
}

/// `Terraform::Resource::aws_vpc` / `Terraform::Data::aws_region`.
pub fn resource_type(mode: Mode, resource_type: &str) -> String {
    match mode {
        Mode::Managed => format!("{RESOURCE_KIND}::{resource_type}"),
        Mode::Data => format!("{TYPE_PREFIX}Data::{resource_type}"),
    }
}

/// A resource instance address, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstanceAddress {
    /// Module calls from the root, keys dropped: `["vpc", "subnets"]`.
    pub modules: Vec<String>,
    pub mode: Mode,
    pub resource_type: String,
    pub name: String,
    /// The whole instance key path, for telling instances apart (`module.vpc["a"]…[0]`).
    pub instance: String,
}

impl InstanceAddress {
    /// Parse `module.a["x"].data.aws_region.current[0]`; `None` when it is not one.
    pub fn parse(address: &str) -> Option<InstanceAddress> {
        let segments = split_segments(address)?;
        let mut modules = Vec::new();
        let mut rest = segments.as_slice();
        while let [first, next, tail @ ..] = rest {
            if first.name != "module" || first.key.is_some() || tail.is_empty() {
                break;
            }
            modules.push(next.name.clone());
            rest = tail;
        }
        let (mode, rest) = match rest {
            [first, tail @ ..] if first.name == "data" && first.key.is_none() => (Mode::Data, tail),
            _ => (Mode::Managed, rest),
        };
        let [kind, name] = rest else {
            return None;
        };
        if kind.key.is_some()
            || kind.name.is_empty()
            || kind.name == "module"
            || name.name.is_empty()
        {
            return None;
        }
        Some(InstanceAddress {
            modules,
            mode,
            resource_type: kind.name.clone(),
            name: name.name.clone(),
            instance: address.to_owned(),
        })
    }

    /// The declaring block, keys dropped: `module.a.data.aws_region.current`.
    pub fn block(&self) -> String {
        let mut out = String::new();
        for module in &self.modules {
            out.push_str("module.");
            out.push_str(module);
            out.push('.');
        }
        if self.mode == Mode::Data {
            out.push_str("data.");
        }
        out.push_str(&self.resource_type);
        out.push('.');
        out.push_str(&self.name);
        out
    }

    /// The root module's call this instance lives under: `module.a`.
    pub fn top_module(&self) -> Option<String> {
        self.modules.first().map(|m| format!("module.{m}"))
    }

    pub fn entity_type(&self) -> String {
        resource_type(self.mode, &self.resource_type)
    }
}

struct Segment {
    name: String,
    key: Option<String>,
}

/// Split on dots outside brackets and quotes; a bracketed key sticks to its segment.
fn split_segments(address: &str) -> Option<Vec<Segment>> {
    let mut segments = Vec::new();
    let mut chars = address.chars().peekable();
    loop {
        let mut name = String::new();
        while let Some(&c) = chars.peek() {
            if c == '.' || c == '[' {
                break;
            }
            name.push(c);
            chars.next();
        }
        let mut key = None;
        if chars.peek() == Some(&'[') {
            let mut raw = String::new();
            let mut in_string = false;
            let mut escaped = false;
            for c in chars.by_ref() {
                raw.push(c);
                match c {
                    _ if escaped => escaped = false,
                    '\\' if in_string => escaped = true,
                    '"' => in_string = !in_string,
                    ']' if !in_string => break,
                    _ => {}
                }
            }
            if !raw.ends_with(']') || in_string {
                return None;
            }
            key = Some(raw);
        }
        segments.push(Segment { name, key });
        match chars.next() {
            Some('.') => continue,
            None => break,
            Some(_) => return None,
        }
    }
    Some(segments)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instances_fold_onto_their_blocks() {
        let cases = [
            ("aws_vpc.main", "aws_vpc.main", None),
            ("aws_subnet.a[0]", "aws_subnet.a", None),
            (
                "terraform_data.each[\"a.b[c]\"]",
                "terraform_data.each",
                None,
            ),
            ("data.aws_region.current", "data.aws_region.current", None),
            (
                "module.vpc[\"x\"].module.sub[1].aws_subnet.a[2]",
                "module.vpc.module.sub.aws_subnet.a",
                Some("module.vpc"),
            ),
            (
                "module.m.data.terraform_remote_state.s",
                "module.m.data.terraform_remote_state.s",
                Some("module.m"),
            ),
        ];
        for (instance, block, top) in cases {
            let parsed = InstanceAddress::parse(instance).unwrap_or_else(|| panic!("{instance}"));
            assert_eq!(parsed.block(), block);
            assert_eq!(parsed.top_module().as_deref(), top);
        }
        let data = InstanceAddress::parse("data.aws_region.current").unwrap();
        assert_eq!(data.entity_type(), "Terraform::Data::aws_region");
        let managed = InstanceAddress::parse("module.m.aws_vpc.main").unwrap();
        assert_eq!(managed.entity_type(), "Terraform::Resource::aws_vpc");
    }

    #[test]
    fn non_addresses_are_refused() {
        for bad in [
            "",
            "aws_vpc",
            "module.m",
            "a.b.c",
            "aws_vpc.main[0",
            "x[0].y",
            "a.b[\"]",
        ] {
            assert_eq!(InstanceAddress::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn entity_names_split_on_the_first_slash() {
        assert_eq!(
            entity_name("network", "aws_vpc.main"),
            "network/aws_vpc.main"
        );
        assert_eq!(
            split_entity("network/module.m.aws_vpc.x[\"a/b\"]"),
            Some(("network", "module.m.aws_vpc.x[\"a/b\"]"))
        );
    }
}
