// The --help text.
export const HELP = `pvlint — lint Kubernetes storage in GitOps repos (PVCs, PVs, StorageClasses and the workloads that mount them)

Usage:
  pvlint [options] [paths...]      lint files and directories (default: .); "-" reads a manifest stream from stdin
  pvlint rules [--format json]     list the rules
  pvlint explain <rule-id>         show a rule's page: what breaks, why, when it fires, how to fix it

Options:
  -f, --format <format>            text (default), json, sarif, or github (GitHub Actions annotations)
  -o, --output <file>              write the report to a file instead of stdout
      --fail-level <level>         exit 1 when a finding is at or above: error | warning | note (default: error)
      --sarif-category <c>         SARIF: code scanning category (automationDetails.id "<c>/")
      --ignore <glob>              skip files matching the glob (repeatable), relative to each directory argument
  -q, --quiet                      text format: show errors only
      --kustomize-command <cmd>    render Kustomize roots with this command (default: kustomize build, else kubectl kustomize)
      --enable-helm                pass --enable-helm to kustomize (kustomizations with helmCharts); off by default
      --helm-values <file>         values file for every helm template (repeatable)
      --helm-release <name>        release name for helm template (default: release-name)
      --helm-namespace <ns>        release namespace for helm template (default: default)
      --render-timeout <seconds>   stop a render that runs longer (default: 60)
      --skip-missing-renderers     lint without charts/roots whose renderer is not installed (a note) instead of exit 2
      --bundle-complete            the repo holds every storage object: absent references are errors, not notes
      --no-color                   no colours (also NO_COLOR=1, and whenever stdout is not a terminal)
  -v, --version                    print the version
  -h, --help                       print this help

Exit codes: 0 no finding at or above the fail level, 1 such findings, 2 usage, configuration or rendering errors.
`;
