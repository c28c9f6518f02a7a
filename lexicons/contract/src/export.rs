//! Live export: the full input config of live objects, for regenerating source.
//!
//! [`ExportedTemplate`] is deliberately its own type: it may carry secrets, so nothing in
//! the lifecycle code accepts it, it does not serialize, and its `Debug` prints counts
//! only. The only thing that consumes it is the lexicon's own source generator.

use serde_json::Value;
use std::fmt;
use std::path::PathBuf;

/// `--type` / `--name` on `chant import --from`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResourceSelector {
    pub entity_type: Option<String>,
    pub name: Option<String>,
}

impl ResourceSelector {
    pub fn accepts(&self, entity_type: &str, name: &str) -> bool {
        self.entity_type.as_deref().is_none_or(|t| t == entity_type)
            && self.name.as_deref().is_none_or(|n| n == name)
    }
}

#[derive(Clone, Debug)]
pub struct ExportRequest {
    pub environment: String,
    pub project: crate::ownership::ProjectMarker,
    pub selector: ResourceSelector,
    /// Only objects carrying this project's marker.
    pub owned: bool,
    /// Keep server-defaulted fields.
    pub verbatim: bool,
    pub stack: Option<String>,
    pub region: Option<String>,
}

/// One exported resource: the entity name it will be declared under, its type and its
/// full input properties.
#[derive(Clone, PartialEq)]
pub struct IrResource {
    pub logical_id: String,
    pub entity_type: String,
    pub properties: Value,
    pub metadata: Option<Value>,
}

#[derive(Clone, PartialEq)]
pub struct IrParameter {
    pub name: String,
    pub parameter_type: String,
    pub description: Option<String>,
    pub default_value: Option<Value>,
}

/// The import IR.
#[derive(Clone, Default, PartialEq)]
pub struct TemplateIr {
    pub resources: Vec<IrResource>,
    pub parameters: Vec<IrParameter>,
    pub metadata: Option<Value>,
}

/// A live export, branded so it can never flow into lifecycle code.
pub struct ExportedTemplate {
    lexicon: String,
    ir: TemplateIr,
}

impl ExportedTemplate {
    pub fn new(lexicon: impl Into<String>, ir: TemplateIr) -> Self {
        ExportedTemplate {
            lexicon: lexicon.into(),
            ir,
        }
    }

    pub fn lexicon(&self) -> &str {
        &self.lexicon
    }

    pub fn ir(&self) -> &TemplateIr {
        &self.ir
    }

    pub fn into_ir(self) -> TemplateIr {
        self.ir
    }

    pub fn is_empty(&self) -> bool {
        self.ir.resources.is_empty()
    }

    pub fn len(&self) -> usize {
        self.ir.resources.len()
    }
}

impl fmt::Debug for ExportedTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ExportedTemplate({}: {} resource(s), values withheld)",
            self.lexicon,
            self.ir.resources.len()
        )
    }
}

impl fmt::Debug for TemplateIr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "TemplateIr({} resource(s), values withheld)",
            self.resources.len()
        )
    }
}

impl fmt::Debug for IrResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "IrResource({} {}, values withheld)",
            self.entity_type, self.logical_id
        )
    }
}

impl fmt::Debug for IrParameter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "IrParameter({})", self.name)
    }
}

/// A source file a generator writes, relative to the output directory.
#[derive(Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    pub path: PathBuf,
    pub content: String,
}

impl fmt::Debug for GeneratedFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "GeneratedFile({}, {} bytes)",
            self.path.display(),
            self.content.len()
        )
    }
}
