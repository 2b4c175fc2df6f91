"""Validates clgauge JSON documents against docs/schema/clgauge-v2.schema.json (python3-jsonschema).

    schema_check.py SCHEMA valid DOC...       every DOC must pass; the schema must list exactly the keys the
                                              documents have (rows, device block, metadata): a field added or
                                              renamed in the code without the schema fails here too
    schema_check.py SCHEMA renamed DOC PATH   the DOC with the key at PATH (dot-separated, a number indexes an
                                              array: results.0.t_median_s) renamed to PATH's last part + "_x"
                                              must fail
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("schema_check.py: python3-jsonschema is missing: apt-get install python3-jsonschema")


def validator(path):
    schema = json.load(open(path))
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema, jsonschema.Draft202012Validator(schema)


def same_keys(what, have, listed, optional=()):
    """The keys an object has must be the ones the schema lists for it (those in optional may be absent)."""
    extra, missing = sorted(set(have) - set(listed)), sorted(set(listed) - set(have) - set(optional))
    if extra or missing:
        sys.exit("%s: keys not in the schema %s; in the schema but not written %s" % (what, extra, missing))


def check_keys(schema, doc, name):
    defs = schema["$defs"]
    kind = doc["kind"]
    top = defs[kind + "_doc"]["properties"]
    same_keys(name + ": top level", doc, top, optional=("estimates",))  # estimates: run --estimate only
    same_keys(name + ": tool", doc["tool"], defs["tool"]["properties"])
    devices = doc["devices"] if kind == "devices" else [doc["device"]]
    for d in devices:
        same_keys(name + ": device", [k for k in d if k != "selector"], defs["device"]["properties"])
    if kind in ("run", "peak"):
        same_keys(name + ": options", doc["options"], top["options"]["properties"])
        for row in doc["results"]:
            same_keys(name + ": a row", row, defs[kind + "_row"]["properties"])
        for row in doc.get("estimates", []):
            same_keys(name + ": an estimate", row, top["estimates"]["items"]["properties"])


def main():
    schema, v = validator(sys.argv[1])
    mode = sys.argv[2]
    if mode == "valid":
        for name in sys.argv[3:]:
            doc = json.load(open(name))
            errors = sorted(v.iter_errors(doc), key=lambda e: list(e.path))
            if errors:
                e = errors[0]
                sys.exit("%s: %d errors; first at %s: %s" % (name, len(errors), "/".join(map(str, e.path)),
                                                             e.message[:300]))
            check_keys(schema, doc, name)
        return
    doc = json.load(open(sys.argv[3]))
    parts = sys.argv[4].split(".")
    o = doc
    for p in parts[:-1]:
        o = o[int(p)] if isinstance(o, list) else o[p]
    o[parts[-1] + "_x"] = o.pop(parts[-1])
    if v.is_valid(doc):
        sys.exit("%s with %s renamed still passes the schema" % (sys.argv[3], sys.argv[4]))


main()
