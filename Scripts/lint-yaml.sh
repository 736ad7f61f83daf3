#!/usr/bin/env bash
# Lints the repository's YAML: every file parses with a real YAML parser (PyYAML), each GitHub
# workflow has `on` and `jobs`, each job `runs-on` and `steps`, and .spi.yml has `version` and
# `builder.configs[].documentation_targets`. Installs PyYAML when it is missing (apt-get, else
# pip), as a fresh CI machine has none.
#
#   Scripts/lint-yaml.sh               lint .github/workflows/*.yml and .spi.yml
#   Scripts/lint-yaml.sh FILE...       lint these files (a name ending .spi.yml is checked as one)
#
# Exit status: 1 on any problem, else 0.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! python3 -c "import yaml" 2>/dev/null; then
  echo "PyYAML missing: installing it"
  if command -v apt-get >/dev/null; then
    apt-get install -y python3-yaml >/dev/null || { apt-get update >/dev/null && apt-get install -y python3-yaml >/dev/null; }
  else
    python3 -m pip install --quiet pyyaml
  fi
fi

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  shopt -s nullglob
  files=(.github/workflows/*.yml .github/workflows/*.yaml)
  [ ${#files[@]} -gt 0 ] || { echo "no workflow in .github/workflows" >&2; exit 1; }
  files+=(.spi.yml)
fi

python3 - "${files[@]}" <<'PYTHON'
import sys

import yaml

problems = []


def check_workflow(path, document):
    if not isinstance(document, dict):
        return problems.append(f"{path}: not a mapping")
    # YAML 1.1 reads a bare `on` key as the boolean true.
    if "on" not in document and True not in document:
        problems.append(f"{path}: no `on` (what triggers the workflow)")
    jobs = document.get("jobs")
    if not isinstance(jobs, dict) or not jobs:
        return problems.append(f"{path}: no `jobs`")
    for name, job in jobs.items():
        if not isinstance(job, dict):
            problems.append(f"{path}: job {name} is not a mapping")
            continue
        if "runs-on" not in job:
            problems.append(f"{path}: job {name} has no `runs-on`")
        steps = job.get("steps")
        if not isinstance(steps, list) or not steps:
            problems.append(f"{path}: job {name} has no `steps`")
        elif not all(isinstance(step, dict) and ("run" in step or "uses" in step) for step in steps):
            problems.append(f"{path}: job {name} has a step with neither `run` nor `uses`")


def check_spi(path, document):
    if not isinstance(document, dict) or "version" not in document:
        return problems.append(f"{path}: no `version`")
    configs = (document.get("builder") or {}).get("configs") if isinstance(document.get("builder"), dict) else None
    if not isinstance(configs, list) or not configs:
        return problems.append(f"{path}: no `builder.configs`")
    if not any(isinstance(config, dict) and config.get("documentation_targets") for config in configs):
        problems.append(f"{path}: no `builder.configs[].documentation_targets`")


for path in sys.argv[1:]:
    try:
        with open(path, encoding="utf-8") as file:
            document = yaml.safe_load(file)
    except (OSError, yaml.YAMLError) as error:
        problems.append(f"{path}: {error}")
        continue
    (check_spi if path.endswith(".spi.yml") else check_workflow)(path, document)
    print(f"checked {path}")

for problem in problems:
    print(problem, file=sys.stderr)
sys.exit(1 if problems else 0)
PYTHON
