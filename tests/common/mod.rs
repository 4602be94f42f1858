//! Shared by the integration tests that need an outside tool.

/// Whether a test that needs `tool` can run. Such tests are ignored when
/// build.rs did not find the tool; this catches a tool removed since the
/// build (the test then says so and returns), and under CI (`CI` set) it
/// fails: `.ci/run` installs the tool, so CI cannot silently skip.
pub fn tool_present(present: bool, tool: &str, install: &str) -> bool {
    if !present {
        assert!(
            std::env::var_os("CI").is_none(),
            "{tool} is missing under CI: .ci/run should have installed it ({install})"
        );
        eprintln!("skipped: {tool} not installed ({install})");
    }
    present
}
