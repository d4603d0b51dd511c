"""The harness: benches discovered from tb/<area>/, runner, toolchain, CLI, lint, synthesis, targets and report."""
