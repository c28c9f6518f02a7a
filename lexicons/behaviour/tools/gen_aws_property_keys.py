#!/usr/bin/env python3
"""Write data/aws-property-keys.tsv: every declarable property key of every CloudFormation
resource type, from the provider schemas inside the PyPI package cfn-lint, for the
credential-key guard test (tests/credential_key_guard.rs).

Run at authoring time, never at build time:

    python3 -m venv /tmp/cfn && /tmp/cfn/bin/pip install 'cfn-lint==1.51.0'
    /tmp/cfn/bin/python lexicons/behaviour/tools/gen_aws_property_keys.py \
        > lexicons/behaviour/data/aws-property-keys.tsv

Declarable means reachable from `properties` (top level and nested definitions) and not
listed in `readOnlyProperties`, which a template never sets. One line per distinct
(key, JSON type, sample): the sample is the schema's first enum value, `arn` when the
schema says the value is an ARN (a pattern starting `arn:` or a description naming one),
or `-` for free text.
"""

import datetime
import re
import sys

from cfnlint.schema.manager import PROVIDER_SCHEMA_MANAGER
from cfnlint.version import __version__ as CFN_LINT_VERSION

REGION = "us-east-1"
ARN_TEXT = re.compile(r"\bARN\b|Amazon Resource Name")


def resolve(node, schema, seen):
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        if not ref.startswith("#/definitions/"):
            return {}, seen
        name = ref.split("/")[-1]
        if name in seen:
            return None, seen
        seen = seen | {name}
        node = (schema.get("definitions") or {}).get(name, {})
    return node, seen


def facts(node, schema, seen):
    """(types, sample) of one property schema."""
    node, seen = resolve(node, schema, seen)
    if node is None:
        return {"object"}, "-"
    if not isinstance(node, dict):
        return {"any"}, "-"
    types, sample = set(), "-"
    declared = node.get("type")
    if isinstance(declared, list):
        types |= set(declared)
    elif declared:
        types.add(declared)
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in node.get(key) or []:
            sub_types, sub_sample = facts(sub, schema, seen)
            types |= sub_types
            if sample == "-":
                sample = sub_sample
    if not types:
        if "properties" in node or "patternProperties" in node:
            types.add("object")
        elif "items" in node:
            types.add("array")
        elif "enum" in node:
            types.add("string")
        else:
            types.add("any")
    enum = [v for v in node.get("enum") or [] if isinstance(v, str)]
    if enum:
        sample = enum[0]
    elif str(node.get("pattern", "")).lstrip("^").startswith("arn:") or ARN_TEXT.search(
        str(node.get("description", ""))
    ):
        sample = "arn"
    return types, sample


def walk(node, schema, seen, path, read_only, rows):
    node, seen = resolve(node, schema, seen)
    if not isinstance(node, dict):
        return
    for key, sub in (node.get("properties") or {}).items():
        pointer = f"{path}/{key}"
        if pointer in read_only:
            continue
        types, sample = facts(sub, schema, seen)
        for t in types:
            rows.add((key, t, sample))
        walk(sub, schema, seen, pointer, read_only, rows)
    for sub in (node.get("patternProperties") or {}).values():
        walk(sub, schema, seen, f"{path}/*", read_only, rows)
    if isinstance(node.get("items"), dict):
        walk(node["items"], schema, seen, f"{path}/*", read_only, rows)
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in node.get(key) or []:
            walk(sub, schema, seen, path, read_only, rows)


def main() -> None:
    types = sorted(PROVIDER_SCHEMA_MANAGER.get_resource_types(REGION))
    rows = set()
    for name in types:
        schema = PROVIDER_SCHEMA_MANAGER.get_resource_schema(REGION, name).schema
        read_only = set(schema.get("readOnlyProperties") or [])
        walk(schema, schema, frozenset(), "/properties", read_only, rows)
    today = datetime.date.today().isoformat()
    print(f"# source: PyPI cfn-lint {CFN_LINT_VERSION}, cfnlint/data/schemas/providers ({REGION}), {len(types)} resource types")
    print(f"# generated: {today} by lexicons/behaviour/tools/gen_aws_property_keys.py")
    print("# columns: key\tJSON type\tsample (first enum value, `arn`, or `-` for free text)")
    for key, t, sample in sorted(rows):
        print(f"{key}\t{t}\t{sample}".replace("\n", " "))


if __name__ == "__main__":
    sys.exit(main())
