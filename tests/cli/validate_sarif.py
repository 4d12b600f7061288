#!/usr/bin/python3
"""validate_sarif.py - validates SARIF files against the SARIF 2.1.0 JSON
schema with the jsonschema package (Debian: python3-jsonschema).
Usage: validate_sarif.py SCHEMA FILE...   exit 0: all valid, 1: invalid, 2: cannot run."""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("validate_sarif.py: the jsonschema module is missing "
          "(Debian: apt-get install python3-jsonschema)", file=sys.stderr)
    sys.exit(2)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema, format_checker=jsonschema.FormatChecker())
    bad = 0
    for path in argv[2:]:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        for e in errors[:10]:
            where = "/".join(str(p) for p in e.absolute_path) or "(root)"
            print(f"{path}: {where}: {e.message}")
        if errors:
            bad += 1
        else:
            print(f"{path}: valid SARIF 2.1.0 ({cls.__name__})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
