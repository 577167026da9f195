/work/main/target-base/release/examples/fault_runs-bffa2e159a665ee9.d: engine/examples/fault_runs.rs

/work/main/target-base/release/examples/fault_runs-bffa2e159a665ee9: engine/examples/fault_runs.rs

engine/examples/fault_runs.rs:
