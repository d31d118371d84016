// The --help text.
export const HELP = `pvlint — lint Kubernetes storage in GitOps repos (PVCs, PVs, StorageClasses and the workloads that mount them)

Usage:
  pvlint [options] [paths...]      lint files and directories (default: .); "-" reads a manifest stream from stdin
  pvlint rules [--format json]     list the rules
  pvlint explain <rule-id>         show a rule's page: what breaks, why, when it fires, how to fix it
  pvlint init                      write a commented starter .pvlint.yaml here (never overwrites one)
  pvlint graph [paths...]          draw each environment's storage: workloads → volumes → claims → PVs → StorageClasses,
                                   namespaces as groups, objects not in the repo dashed, findings on their edges

Options:
  -f, --format <format>            text (default), json, sarif, github (GitHub Actions annotations), or markdown
                                   (with a Mermaid picture per environment, for $GITHUB_STEP_SUMMARY);
                                   graph: mermaid (default), dot, or html (one self-contained page with the findings)
      --focus <kind/ns/name>       graph: only what is connected to this object (e.g. deploy/shop/web, pvc/shop/data, sc/gp3)
  -o, --output <file>              write the report to a file instead of stdout
      --fail-level <level>         exit 1 when a finding is at or above: error | warning | note (default: error)
      --sarif-category <c>         SARIF: code scanning category (automationDetails.id "<c>/")
      --ignore <glob>              skip files matching the glob (repeatable), relative to each directory argument
      --list-environments          print the environments of the paths (name, kind, entry, estimated size; text or
                                   --format json), found without rendering, and exit
      --environment <name>         lint only this environment, as --list-environments names it (repeatable)
  -q, --quiet                      text format: show errors only
      --kustomize-command <cmd>    render Kustomize roots with this command (default: kustomize build, else kubectl kustomize)
      --enable-helm                pass --enable-helm to kustomize (kustomizations with helmCharts); off by default
      --chart-cache <dir>          where charts of HelmReleases are pulled to and rendered from offline
                                   (default: $XDG_CACHE_HOME/pvlint/charts, else ~/.cache/pvlint/charts)
      --no-chart-pull              never run helm pull: render only charts of the repository, helm.charts and the cache
      --follow-symlinks            follow symbolic links that lead out of the repository (each target once)
      --parse-all-documents        parse every document, also those of kinds no rule reads (reports their YAML
                                   syntax errors too; slower on repos full of CRDs and dashboards)
      --cache                      reuse what earlier runs parsed and rendered for files that did not change
                                   (kept in node_modules/.cache/pvlint at the repository root)
      --cache-location <dir>       keep the cache there instead (implies --cache)
      --helm-values <file>         values file for every helm template (repeatable)
      --helm-release <name>        release name for helm template (default: release-name)
      --helm-namespace <ns>        release namespace for helm template (default: default)
      --render-timeout <seconds>   stop a render that runs longer (default: 60)
      --custom-rule-timeout <seconds>
                                   stop a custom rule whose module load or check on one environment runs longer
                                   (default: customRuleTimeout of the configuration, else 10)
      --skip-missing-renderers     lint without charts/roots whose renderer is not installed (a note) instead of exit 2
      --bundle-complete            the repo holds every storage object: absent references are errors, not notes
      --base <git-ref>             also lint the same paths at this commit, branch or tag, and report what the change
                                   breaks: immutable fields edited, claims shrunk or removed while used, renames
      --new-only                   with --base: leave out findings the base has too (a pull request check)
  -c, --config <file>              configuration file (default: .pvlint.yaml, .pvlint.yml or .pvlint.json, the nearest
                                   one from the path arguments upwards, else from here, never above the repository
                                   root); flags win over its settings
      --no-config                  ignore any configuration file
      --show-suppressed            text and json: list the findings suppressions accepted (always counted)
      --color, --no-color          colours in the text report on or off; by default on when stdout is a terminal,
                                   off with NO_COLOR set (non-empty), on with FORCE_COLOR (off with FORCE_COLOR=0);
                                   a flag wins over the environment, FORCE_COLOR over NO_COLOR
      --debug                      say on stderr which configuration file applies (the JSON report says it too)
  -v, --version                    print the version
  -h, --help                       print this help

Exit codes: 0 no finding at or above the fail level, 1 such findings, 2 usage, configuration or rendering errors.
`;
