#!/usr/bin/env python3
"""validate_sarif.py - check a SARIF 2.1.0 log the way ompdp writes it.

usage: validate_sarif.py LOG.sarif [--schema OFFICIAL_SCHEMA.json]

The official schema (sarif-schema-2.1.0.json, OASIS) is not part of this
repository. With --schema (or OMPDP_SARIF_SCHEMA in the environment) the log
is also validated against it with jsonschema. Without it, this script checks
every structural rule of the specification that ompdp's output uses,
written down here from the specification:

  - the JSON Schema rules of the objects ompdp emits (sarifLog, run, tool,
    toolComponent, reportingDescriptor, reportingConfiguration,
    multiformatMessageString, message, invocation, notification, result,
    location, physicalLocation, logicalLocation, artifactLocation, region,
    fix, artifactChange, replacement, artifactContent, propertyBag):
    required properties, types, enumerations, minimums, no properties the
    schema does not define, unique array items where the schema says so;
  - rules the schema cannot express: a URI reference is valid (RFC 3986),
    ruleIndex names the rule whose id is ruleId, rule ids are unique, a
    region does not end before it starts, location ids within a result are
    unique, message texts are not empty, and the replacements of one
    artifactChange do not overlap (so they can be applied in any order).

Prints "valid: N result(s), M fix(es)" or the first error (exit status 1).
"""
import json
import os
import re
import sys


def obj(props, required=(), any_of=None):
    return {"type": "object", "properties": props, "required": list(required),
            "any_of": any_of}


INT = {"type": "integer"}
INT_M1 = {"type": "integer", "minimum": -1}
INT_0 = {"type": "integer", "minimum": 0}
INT_1 = {"type": "integer", "minimum": 1}
STR = {"type": "string"}
BOOL = {"type": "boolean"}
URI_REF = {"type": "string", "format": "uri-reference"}
URI = {"type": "string", "format": "uri"}
LEVEL = {"enum": ["none", "note", "warning", "error"]}
BAG = {"type": "bag"}


def arr(items, min_items=0, unique=False):
    return {"type": "array", "items": items, "minItems": min_items, "unique": unique}


def ref(name):
    return {"ref": name}


DEFS = {
    "sarifLog": obj({"$schema": URI, "version": {"enum": ["2.1.0"]},
                     "runs": arr(ref("run")), "inlineExternalProperties": {"type": "any"},
                     "properties": BAG}, ["version", "runs"]),
    "run": obj({"tool": ref("tool"), "invocations": arr(ref("invocation")),
                "conversion": {"type": "any"}, "language": STR,
                "versionControlProvenance": {"type": "any"},
                "originalUriBaseIds": {"type": "map", "values": ref("artifactLocation")},
                "artifacts": {"type": "any"}, "logicalLocations": {"type": "any"},
                "graphs": {"type": "any"}, "results": arr(ref("result")),
                "automationDetails": {"type": "any"}, "runAggregates": {"type": "any"},
                "baselineGuid": STR, "redactionTokens": {"type": "any"},
                "defaultEncoding": STR, "defaultSourceLanguage": STR,
                "newlineSequences": arr(STR, 1, True),
                "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
                "externalPropertyFileReferences": {"type": "any"},
                "threadFlowLocations": {"type": "any"}, "taxonomies": {"type": "any"},
                "addresses": {"type": "any"}, "translations": {"type": "any"},
                "policies": {"type": "any"}, "webRequests": {"type": "any"},
                "webResponses": {"type": "any"}, "specialLocations": {"type": "any"},
                "properties": BAG}, ["tool"]),
    "tool": obj({"driver": ref("toolComponent"), "extensions": arr(ref("toolComponent"), 0, True),
                 "properties": BAG}, ["driver"]),
    "toolComponent": obj({"guid": STR, "name": STR, "organization": STR, "product": STR,
                          "productSuite": STR, "shortDescription": ref("multiformatMessageString"),
                          "fullDescription": ref("multiformatMessageString"), "fullName": STR,
                          "version": STR, "semanticVersion": STR, "dottedQuadFileVersion": STR,
                          "releaseDateUtc": STR, "downloadUri": URI, "informationUri": URI,
                          "globalMessageStrings": {"type": "any"},
                          "notifications": arr(ref("reportingDescriptor"), 0, True),
                          "rules": arr(ref("reportingDescriptor"), 0, True),
                          "taxa": {"type": "any"}, "locations": {"type": "any"}, "language": STR,
                          "contents": {"type": "any"}, "isComprehensive": BOOL,
                          "localizedDataSemanticVersion": STR,
                          "minimumRequiredLocalizedDataSemanticVersion": STR,
                          "associatedComponent": {"type": "any"},
                          "translationMetadata": {"type": "any"},
                          "supportedTaxonomies": {"type": "any"}, "properties": BAG}, ["name"]),
    "reportingDescriptor": obj({"id": STR, "deprecatedIds": arr(STR, 0, True), "guid": STR,
                                "deprecatedGuids": arr(STR, 0, True), "name": STR,
                                "deprecatedNames": arr(STR, 0, True),
                                "shortDescription": ref("multiformatMessageString"),
                                "fullDescription": ref("multiformatMessageString"),
                                "messageStrings": {"type": "map",
                                                   "values": ref("multiformatMessageString")},
                                "defaultConfiguration": ref("reportingConfiguration"),
                                "helpUri": URI, "help": ref("multiformatMessageString"),
                                "relationships": {"type": "any"}, "properties": BAG}, ["id"]),
    "reportingConfiguration": obj({"enabled": BOOL, "level": LEVEL,
                                   "rank": {"type": "number", "minimum": -1, "maximum": 100},
                                   "parameters": BAG, "properties": BAG}),
    "multiformatMessageString": obj({"text": STR, "markdown": STR, "properties": BAG}, ["text"]),
    "message": obj({"text": STR, "markdown": STR, "id": STR, "arguments": arr(STR),
                    "properties": BAG}, any_of=[["text"], ["id"]]),
    "invocation": obj({"commandLine": STR, "arguments": arr(STR),
                       "responseFiles": {"type": "any"}, "startTimeUtc": STR, "endTimeUtc": STR,
                       "exitCode": INT, "ruleConfigurationOverrides": {"type": "any"},
                       "notificationConfigurationOverrides": {"type": "any"},
                       "toolExecutionNotifications": arr(ref("notification")),
                       "toolConfigurationNotifications": arr(ref("notification")),
                       "exitCodeDescription": STR, "exitSignalName": STR,
                       "exitSignalNumber": INT, "processStartFailureMessage": STR,
                       "executionSuccessful": BOOL, "machine": STR, "account": STR,
                       "processId": INT, "executableLocation": ref("artifactLocation"),
                       "workingDirectory": ref("artifactLocation"),
                       "environmentVariables": {"type": "any"}, "stdin": {"type": "any"},
                       "stdout": {"type": "any"}, "stderr": {"type": "any"},
                       "stdoutStderr": {"type": "any"}, "properties": BAG},
                      ["executionSuccessful"]),
    "notification": obj({"locations": arr(ref("location"), 0, True), "message": ref("message"),
                         "level": LEVEL, "threadId": INT, "timeUtc": STR,
                         "exception": {"type": "any"}, "descriptor": {"type": "any"},
                         "associatedRule": {"type": "any"}, "properties": BAG}, ["message"]),
    "result": obj({"ruleId": STR, "ruleIndex": INT_M1, "rule": {"type": "any"},
                   "kind": {"enum": ["notApplicable", "pass", "fail", "review", "open",
                                     "informational"]},
                   "level": LEVEL, "message": ref("message"),
                   "analysisTarget": ref("artifactLocation"), "locations": arr(ref("location")),
                   "guid": STR, "correlationGuid": STR, "occurrenceCount": INT_1,
                   "partialFingerprints": {"type": "map", "values": STR},
                   "fingerprints": {"type": "map", "values": STR},
                   "stacks": {"type": "any"}, "codeFlows": {"type": "any"},
                   "graphs": {"type": "any"}, "graphTraversals": {"type": "any"},
                   "relatedLocations": arr(ref("location"), 0, True),
                   "suppressions": {"type": "any"},
                   "baselineState": {"enum": ["new", "unchanged", "updated", "absent"]},
                   "rank": {"type": "number", "minimum": -1, "maximum": 100},
                   "attachments": {"type": "any"}, "hostedViewerUri": URI,
                   "workItemUris": arr(URI, 0, True), "provenance": {"type": "any"},
                   "fixes": arr(ref("fix"), 0, True), "taxa": {"type": "any"},
                   "webRequest": {"type": "any"}, "webResponse": {"type": "any"},
                   "properties": BAG}, ["message"]),
    "location": obj({"id": INT_M1, "physicalLocation": ref("physicalLocation"),
                     "logicalLocations": arr(ref("logicalLocation"), 0, True),
                     "message": ref("message"), "annotations": arr(ref("region"), 0, True),
                     "relationships": {"type": "any"}, "properties": BAG}),
    "physicalLocation": obj({"address": {"type": "any"},
                             "artifactLocation": ref("artifactLocation"),
                             "region": ref("region"), "contextRegion": ref("region"),
                             "properties": BAG},
                            any_of=[["address"], ["artifactLocation"]]),
    "logicalLocation": obj({"name": STR, "index": INT_M1, "fullyQualifiedName": STR,
                            "decoratedName": STR, "parentIndex": INT_M1, "kind": STR,
                            "properties": BAG}),
    "artifactLocation": obj({"uri": URI_REF, "uriBaseId": STR, "index": INT_M1,
                             "description": ref("message"), "properties": BAG}),
    "region": obj({"startLine": INT_1, "startColumn": INT_1, "endLine": INT_1,
                   "endColumn": INT_1, "charOffset": INT_M1, "charLength": INT_0,
                   "byteOffset": INT_M1, "byteLength": INT_0,
                   "snippet": ref("artifactContent"), "message": ref("message"),
                   "sourceLanguage": STR, "properties": BAG}),
    "fix": obj({"description": ref("message"),
                "artifactChanges": arr(ref("artifactChange"), 1, True), "properties": BAG},
               ["artifactChanges"]),
    "artifactChange": obj({"artifactLocation": ref("artifactLocation"),
                           "replacements": arr(ref("replacement"), 1), "properties": BAG},
                          ["artifactLocation", "replacements"]),
    "replacement": obj({"deletedRegion": ref("region"), "insertedContent": ref("artifactContent"),
                        "properties": BAG}, ["deletedRegion"]),
    "artifactContent": obj({"text": STR, "binary": STR,
                            "rendered": ref("multiformatMessageString"), "properties": BAG}),
}

# RFC 3986 URI reference: characters allowed anywhere, and well-formed
# percent-encoding; an absolute URI has a scheme.
URI_CHARS = re.compile(r"^([A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")


class Invalid(Exception):
    pass


def check(value, schema, path):
    if "ref" in schema:
        return check(value, DEFS[schema["ref"]], path)
    if "enum" in schema:
        if value not in schema["enum"]:
            raise Invalid("%s: %r is not one of %s" % (path, value, schema["enum"]))
        return
    t = schema.get("type")
    if t == "any":
        return
    if t == "object":
        if not isinstance(value, dict):
            raise Invalid("%s: not an object" % path)
        for k in value:
            if k not in schema["properties"]:
                raise Invalid("%s: property %r is not allowed here" % (path, k))
        for k in schema["required"]:
            if k not in value:
                raise Invalid("%s: required property %r is missing" % (path, k))
        if schema.get("any_of") and not any(all(k in value for k in alt)
                                            for alt in schema["any_of"]):
            raise Invalid("%s: needs one of %s" % (path, schema["any_of"]))
        for k, v in value.items():
            check(v, schema["properties"][k], "%s.%s" % (path, k))
    elif t == "bag":
        if not isinstance(value, dict):
            raise Invalid("%s: a property bag must be an object" % path)
        if "tags" in value:
            tags = value["tags"]
            if (not isinstance(tags, list) or not all(isinstance(x, str) for x in tags)
                    or len(set(tags)) != len(tags)):
                raise Invalid("%s.tags: must be an array of distinct strings" % path)
    elif t == "map":
        if not isinstance(value, dict):
            raise Invalid("%s: not an object" % path)
        for k, v in value.items():
            check(v, schema["values"], "%s.%s" % (path, k))
    elif t == "array":
        if not isinstance(value, list):
            raise Invalid("%s: not an array" % path)
        if len(value) < schema["minItems"]:
            raise Invalid("%s: needs at least %d item(s)" % (path, schema["minItems"]))
        if schema["unique"]:
            seen = [json.dumps(v, sort_keys=True) for v in value]
            if len(set(seen)) != len(seen):
                raise Invalid("%s: items must be unique" % path)
        for i, v in enumerate(value):
            check(v, schema["items"], "%s[%d]" % (path, i))
    elif t == "string":
        if not isinstance(value, str):
            raise Invalid("%s: not a string" % path)
        fmt = schema.get("format")
        if fmt in ("uri", "uri-reference") and not URI_CHARS.match(value):
            raise Invalid("%s: %r is not a valid URI reference" % (path, value))
        if fmt == "uri" and not SCHEME.match(value):
            raise Invalid("%s: %r is not an absolute URI" % (path, value))
    elif t in ("integer", "number"):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                (t == "integer" and not isinstance(value, int)):
            raise Invalid("%s: not an %s" % (path, t))
        if "minimum" in schema and value < schema["minimum"]:
            raise Invalid("%s: %s is below %s" % (path, value, schema["minimum"]))
        if "maximum" in schema and value > schema["maximum"]:
            raise Invalid("%s: %s is above %s" % (path, value, schema["maximum"]))
    elif t == "boolean":
        if not isinstance(value, bool):
            raise Invalid("%s: not a boolean" % path)


def region_span(r, path):
    sl = r.get("startLine")
    if sl is None:
        if "byteOffset" not in r and "charOffset" not in r:
            raise Invalid("%s: a region needs startLine or an offset" % path)
        return None
    sc = r.get("startColumn", 1)
    el = r.get("endLine", sl)
    ec = r.get("endColumn")
    if el < sl or (el == sl and ec is not None and ec < sc):
        raise Invalid("%s: the region ends before it starts" % path)
    return (sl, sc, el, ec if ec is not None else float("inf"))


def messages(value, path):
    """Every message's text is a non-empty string."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k in ("message", "description", "shortDescription", "fullDescription", "help") \
                    and isinstance(v, dict) and "text" in v and not v["text"].strip():
                raise Invalid("%s.%s: empty text" % (path, k))
            messages(v, "%s.%s" % (path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            messages(v, "%s[%d]" % (path, i))


def semantics(log):
    nres = nfix = 0
    for ri, run in enumerate(log["runs"]):
        rules = run["tool"]["driver"].get("rules", [])
        ids = [r["id"] for r in rules]
        if len(set(ids)) != len(ids):
            raise Invalid("runs[%d]: rule ids are not unique" % ri)
        for i, res in enumerate(run.get("results", [])):
            p = "runs[%d].results[%d]" % (ri, i)
            nres += 1
            if "ruleIndex" in res and res["ruleIndex"] >= 0:
                if res["ruleIndex"] >= len(rules):
                    raise Invalid("%s: ruleIndex %d has no rule" % (p, res["ruleIndex"]))
                if "ruleId" in res and rules[res["ruleIndex"]]["id"] != res["ruleId"]:
                    raise Invalid("%s: ruleIndex names rule %r, ruleId says %r"
                                  % (p, rules[res["ruleIndex"]]["id"], res["ruleId"]))
            elif "ruleId" in res and res["ruleId"] not in ids:
                raise Invalid("%s: ruleId %r is not a rule of the run" % (p, res["ruleId"]))
            locs = res.get("locations", []) + res.get("relatedLocations", [])
            lids = [l["id"] for l in locs if "id" in l and l["id"] >= 0]
            if len(set(lids)) != len(lids):
                raise Invalid("%s: location ids are not unique" % p)
            for j, l in enumerate(locs):
                if "physicalLocation" in l and "region" in l["physicalLocation"]:
                    region_span(l["physicalLocation"]["region"], "%s.locations[%d]" % (p, j))
            for k, fix in enumerate(res.get("fixes", [])):
                nfix += 1
                for c, ch in enumerate(fix["artifactChanges"]):
                    spans = []
                    for r, rep in enumerate(ch["replacements"]):
                        q = "%s.fixes[%d].artifactChanges[%d].replacements[%d]" % (p, k, c, r)
                        s = region_span(rep["deletedRegion"], q)
                        if s is None:
                            continue
                        for o in spans:
                            a, b = (s[0], s[1]), (s[2], s[3])
                            x, y = (o[0], o[1]), (o[2], o[3])
                            empty_s, empty_o = a == b, x == y
                            if (a < y and x < b) or (empty_s and empty_o and a == x) or \
                                    (empty_s and x < a < y) or (empty_o and a < x < b):
                                raise Invalid("%s: overlaps another replacement" % q)
                        spans.append(s)
    messages(log, "log")
    return nres, nfix


def main():
    args = sys.argv[1:]
    schema_path = os.environ.get("OMPDP_SARIF_SCHEMA")
    if "--schema" in args:
        i = args.index("--schema")
        schema_path = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as f:
            log = json.load(f)
    except (OSError, ValueError) as e:
        print("invalid: not JSON: %s" % e)
        return 1
    try:
        check(log, DEFS["sarifLog"], "log")
        nres, nfix = semantics(log)
    except Invalid as e:
        print("invalid: %s" % e)
        return 1
    if schema_path:
        import jsonschema
        with open(schema_path) as f:
            official = json.load(f)
        try:
            jsonschema.validate(log, official)
        except jsonschema.ValidationError as e:
            print("invalid against %s: %s" % (schema_path, e.message))
            return 1
        print("valid against the official schema")
    print("valid: %d result(s), %d fix(es)" % (nres, nfix))
    return 0


if __name__ == "__main__":
    sys.exit(main())
