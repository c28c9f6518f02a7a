#!/usr/bin/env python3
"""Generate lexicons/aws/data/resource-facts.tsv from the CloudFormation resource
provider schemas that ship inside the PyPI package cfn-lint.

Run it at authoring time, never at build time:

    python3 -m venv /tmp/cfn && /tmp/cfn/bin/pip install 'cfn-lint==1.51.0'
    /tmp/cfn/bin/python lexicons/aws/tools/gen_resource_facts.py > lexicons/aws/data/resource-facts.tsv

One line per resource type. Every column is copied from one named key of that type's
schema (paths turned from JSON pointers into the diff's dotted grammar: `/properties/A/B`
becomes `A.B`, `/properties/A/*/B` becomes `A[].B`), so each verdict the lexicon gives can
name the schema fact it came from:

    type  createOnlyProperties  conditionalCreateOnlyProperties  readOnlyProperties
          writable (= properties minus readOnlyProperties, top level)  primaryIdentifier
          tagging.tagProperty (or taggable=false)

Empty lists are written as `-`; list items are separated by `,`.
"""

import datetime
import sys

from cfnlint.schema.manager import PROVIDER_SCHEMA_MANAGER
from cfnlint.version import __version__ as CFN_LINT_VERSION

REGION = "us-east-1"


def dotted(pointer: str) -> str:
    parts = pointer.split("/")
    if parts[:2] != ["", "properties"]:
        return ""
    out = ""
    for part in parts[2:]:
        if part == "*":
            out += "[]"
        else:
            out += ("." if out else "") + part
    return out


def column(values) -> str:
    items = sorted({v for v in values if v})
    return ",".join(items) if items else "-"


def tag_property(schema: dict) -> str:
    tagging = schema.get("tagging") or {}
    if tagging.get("taggable") is False or schema.get("taggable") is False:
        return "-"
    prop = tagging.get("tagProperty")
    if prop:
        return dotted(prop)
    return "Tags" if "Tags" in (schema.get("properties") or {}) else "-"


def main() -> None:
    today = datetime.date.today().isoformat()
    types = sorted(PROVIDER_SCHEMA_MANAGER.get_resource_types(REGION))
    print(f"# source: PyPI cfn-lint {CFN_LINT_VERSION}, cfnlint/data/schemas/providers ({REGION})")
    print(f"# generated: {today} by lexicons/aws/tools/gen_resource_facts.py")
    print("# columns: type\tcreateOnlyProperties\tconditionalCreateOnlyProperties\treadOnlyProperties\twritable(properties - readOnlyProperties)\tprimaryIdentifier\ttagging.tagProperty")
    for name in types:
        schema = PROVIDER_SCHEMA_MANAGER.get_resource_schema(REGION, name).schema
        properties = schema.get("properties") or {}
        read_only = [dotted(p) for p in schema.get("readOnlyProperties", [])]
        top_read_only = {p for p in read_only if "." not in p and "[" not in p}
        writable = [p for p in properties if p not in top_read_only]
        row = [
            name,
            column(dotted(p) for p in schema.get("createOnlyProperties", [])),
            column(dotted(p) for p in schema.get("conditionalCreateOnlyProperties", [])),
            column(read_only),
            column(writable),
            ",".join(dotted(p) for p in schema.get("primaryIdentifier", [])) or "-",
            tag_property(schema),
        ]
        print("\t".join(row))


if __name__ == "__main__":
    sys.exit(main())
