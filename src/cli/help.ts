// The --help text.
export const HELP = `pvlint — lint Kubernetes storage in GitOps repos (PVCs, PVs, StorageClasses and the workloads that mount them)

Usage:
  pvlint [options] [paths...]      lint files and directories (default: .); "-" reads a manifest stream from stdin
  pvlint rules [--format json]     list the rules
  pvlint explain <rule-id>         show a rule's page: what breaks, why, when it fires, how to fix it

Options:
  -f, --format <text|json|sarif>   report format (default: text)
  -o, --output <file>              write the report to a file instead of stdout
      --fail-level <level>         exit 1 when a finding is at or above: error | warning | note (default: error)
      --ignore <glob>              skip files matching the glob (repeatable), relative to each directory argument
  -q, --quiet                      text format: show errors only
      --bundle-complete            the repo holds every storage object: absent references are errors, not notes
      --no-color                   no colours (also NO_COLOR=1, and whenever stdout is not a terminal)
  -v, --version                    print the version
  -h, --help                       print this help

Exit codes: 0 no finding at or above the fail level, 1 such findings, 2 usage, configuration or rendering errors.
`;
