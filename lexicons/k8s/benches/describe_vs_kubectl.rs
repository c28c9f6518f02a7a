//! chant's describe path (and, when a chant binary is at hand, `chant lifecycle diff
//! --live` end to end) against `kubectl get -f <same files> -o json`, on the same fake
//! API server: 2,000 objects over 10 kinds and 5 namespaces, 10 ms injected latency per
//! request, HTTPS with a bearer token.
//!
//! Run: `cargo bench -p chant-k8s --bench describe_vs_kubectl`
//! (set `CHANT_BIN=$PWD/target/release/chant` to include the CLI end to end; `BENCH_OBJECTS`,
//! `BENCH_LATENCY_MS` change the estate, `BENCH_RUNS` the number of timed runs whose
//! median is shown, `BENCH_KUBECTL=0` skips kubectl, `BENCH_REQUESTS=1` prints every request
//! of one more run with the millisecond the server received it).

use chant_k8s::K8sFactory;
use chant_lexicon::{
    Lexicon, LexiconFactory, ObserveRequest, ProjectContext, ProjectMarker, ReadPath, ReadsAhead,
};
use chant_testkit::kube_api::{FakeKubeApi, KubeconfigSpec};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

const KINDS: [(&str, &str, &str); 10] = [
    ("v1", "ConfigMap", "data:\n  key: value\n"),
    ("v1", "Secret", "type: Opaque\ndata:\n  key: dmFsdWU=\n"),
    ("v1", "Service", "spec:\n  ports:\n  - port: 80\n"),
    ("v1", "ServiceAccount", ""),
    (
        "apps/v1",
        "Deployment",
        "spec:\n  replicas: 1\n  selector:\n    matchLabels: {app: x}\n  template:\n    metadata:\n      labels: {app: x}\n    spec:\n      containers:\n      - name: x\n        image: nginx\n",
    ),
    (
        "apps/v1",
        "StatefulSet",
        "spec:\n  serviceName: x\n  selector:\n    matchLabels: {app: x}\n  template:\n    metadata:\n      labels: {app: x}\n    spec:\n      containers:\n      - name: x\n        image: nginx\n",
    ),
    (
        "batch/v1",
        "Job",
        "spec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: x\n        image: busybox\n",
    ),
    ("rbac.authorization.k8s.io/v1", "Role", "rules: []\n"),
    (
        "rbac.authorization.k8s.io/v1",
        "RoleBinding",
        "roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: x\nsubjects: []\n",
    ),
    (
        "networking.k8s.io/v1",
        "NetworkPolicy",
        "spec:\n  podSelector: {}\n",
    ),
];
const NAMESPACES: usize = 5;
const MARKER: &str = "  labels:\n    app.kubernetes.io/managed-by: chant\n    chant.intentius.io/stack: bench\n    chant.intentius.io/env: dev\n";

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One YAML file per kind, every object naming its namespace.
fn write_estate(dir: &Path, objects: usize) -> String {
    let per_kind = objects / KINDS.len();
    let mut seed = String::new();
    for n in 0..NAMESPACES {
        seed.push_str(&format!(
            "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns{n}\n"
        ));
    }
    std::fs::create_dir_all(dir.join("dist")).unwrap();
    for (api_version, kind, body) in KINDS {
        let mut file = String::new();
        for i in 0..per_kind {
            let ns = i % NAMESPACES;
            file.push_str(&format!(
                "---\napiVersion: {api_version}\nkind: {kind}\nmetadata:\n  name: {}-{i}\n  namespace: ns{ns}\n{MARKER}{body}",
                kind.to_lowercase()
            ));
        }
        std::fs::write(
            dir.join(format!("dist/{}.yaml", kind.to_lowercase())),
            &file,
        )
        .unwrap();
        seed.push_str(&file);
    }
    seed
}

fn project(dir: &Path) -> Arc<dyn Lexicon> {
    let text = "[ownership]\nstack = \"bench\"\n[lexicons.k8s]\nsource = [\"dist\"]\n[environments.dev.k8s]\nkubeconfig = \"kubeconfig\"\ncontext = \"bench\"\nnamespace = \"ns0\"\n";
    std::fs::write(dir.join("chant.toml"), text).unwrap();
    K8sFactory
        .create(&ProjectContext {
            root: dir.to_path_buf(),
            config_path: dir.join("chant.toml"),
            config_text: Arc::from(text),
            stack: "bench".into(),
            environments: vec!["dev".into()],
        })
        .expect("chant.toml parses")
}

struct Run {
    wall: Duration,
    requests: usize,
    detail: String,
    /// The part of `wall` spent reading the declared files (CPU only).
    reading: Duration,
    /// CPU time of chant (every thread but the fake server's) while reading the declared
    /// files, and while reading the cluster.
    reading_cpu: Duration,
    client_cpu: Duration,
    /// CPU time of the fake server's threads over the run.
    server_cpu: Duration,
}

/// CPU time so far of the fake server's threads (from `/proc/self/task/*/schedstat`, in
/// nanoseconds) and of the rest of the process — chant, including threads that have
/// already exited. Linux only; zero elsewhere.
fn cpu_split() -> (Duration, Duration) {
    let mut server = 0u64;
    for task in std::fs::read_dir("/proc/self/task")
        .into_iter()
        .flatten()
        .flatten()
    {
        let path = task.path();
        let comm = std::fs::read_to_string(path.join("comm")).unwrap_or_default();
        if comm.trim_end() == chant_testkit::kube_api::THREAD_NAME {
            server += std::fs::read_to_string(path.join("schedstat"))
                .ok()
                .and_then(|s| s.split_whitespace().next()?.parse().ok())
                .unwrap_or(0);
        }
    }
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    let process = if unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) } == 0 {
        Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
    } else {
        Duration::ZERO
    };
    let server = Duration::from_nanos(server);
    (server, process.saturating_sub(server))
}

fn chant_describe(dir: &Path, server: &FakeKubeApi) -> Run {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let lexicon = project(dir);
    server.clear_requests();
    let (server_before, client_before) = cpu_split();
    let started = Instant::now();
    let (observation, reading, after_reading) = runtime.block_on(async {
        // As the CLI does: the binding connects, and the LISTs the read is sure to make
        // go out, while the YAML is read.
        let request = ObserveRequest::new("dev", ProjectMarker::new("bench", "dev"), Vec::new());
        let ahead = ReadsAhead::for_reads(&request, &[ReadPath::DescribeResources]);
        let declared = lexicon
            .clone()
            .declared_for_reads(ahead)
            .await
            .expect("the estate reads");
        let reading = started.elapsed();
        let after_reading = cpu_split();
        let request = ObserveRequest {
            entities: Arc::new(declared),
            ..request
        };
        let observation = lexicon
            .describe_resources(&request)
            .await
            .expect("describe answers")
            .normalize();
        (observation, reading, after_reading)
    });
    let wall = started.elapsed();
    let (server_after, client_after) = cpu_split();
    drop(runtime);
    Run {
        wall,
        requests: server.request_count(),
        detail: format!(
            "{} present, {} not observed",
            observation.resources.len(),
            observation.unobserved.len(),
        ),
        reading,
        reading_cpu: after_reading.1.saturating_sub(client_before),
        client_cpu: client_after.saturating_sub(after_reading.1),
        server_cpu: server_after.saturating_sub(server_before),
    }
}

/// The run with the median wall time.
fn median(mut runs: Vec<Run>) -> Run {
    runs.sort_by_key(|r| r.wall);
    let middle = runs.len() / 2;
    runs.swap_remove(middle)
}

/// CPU time (user + system) of every child process waited for so far.
fn children_cpu() -> Duration {
    // SAFETY: getrusage fills one rusage through a valid pointer.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) } != 0 {
        return Duration::ZERO;
    }
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

fn command_run(mut command: std::process::Command, server: &FakeKubeApi, what: &str) -> Run {
    server.clear_requests();
    let cpu_before = children_cpu();
    let (server_before, _) = cpu_split();
    let started = Instant::now();
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{what} did not start: {e}"));
    let wall = started.elapsed();
    let (server_after, _) = cpu_split();
    assert!(
        output.status.success() || output.status.code() == Some(2),
        "{what} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    Run {
        wall,
        requests: server.request_count(),
        detail: format!("{} bytes of output", output.stdout.len()),
        reading: Duration::ZERO,
        reading_cpu: Duration::ZERO,
        client_cpu: children_cpu().saturating_sub(cpu_before),
        server_cpu: server_after.saturating_sub(server_before),
    }
}

/// Each request of the last run: when the server received it (ms after `started`), the
/// method, path and query.
fn print_requests(server: &FakeKubeApi, started: Instant) {
    for logged in server.requests() {
        let query: Vec<String> = logged
            .query
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        println!(
            "  {:>7.1} ms  {} {}?{}",
            logged.at.saturating_duration_since(started).as_secs_f64() * 1000.0,
            logged.method,
            logged.path,
            query.join("&")
        );
    }
}

fn kubectl(dir: &Path, server: &FakeKubeApi) -> Run {
    let home = dir.join("kubectl-home");
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    let mut command = std::process::Command::new("kubectl");
    command
        .env("KUBECONFIG", dir.join("kubeconfig"))
        .env("HOME", &home)
        .args(["get", "-f"])
        .arg(dir.join("dist"))
        .args(["-o", "json"]);
    command_run(command, server, "kubectl")
}

fn chant_cli(dir: &Path, server: &FakeKubeApi, binary: &str) -> Run {
    let mut command = std::process::Command::new(binary);
    command.current_dir(dir).env("NO_COLOR", "1").args([
        "lifecycle",
        "diff",
        "dev",
        "k8s",
        "--live",
        "--json",
    ]);
    command_run(command, server, "chant")
}

fn main() {
    let objects = env_number("BENCH_OBJECTS", 2000) as usize;
    let latency = Duration::from_millis(env_number("BENCH_LATENCY_MS", 10));
    let concurrency = chant_k8s::DEFAULT_CONCURRENCY;
    let dir = tempfile::tempdir().unwrap();
    let seed = write_estate(dir.path(), objects);
    let server = FakeKubeApi::start_tls();
    server.seed_yaml(&seed).require_token("bench-token");
    server.write_kubeconfig(
        &dir.path().join("kubeconfig"),
        &KubeconfigSpec::new("bench")
            .namespace("ns0")
            .token("bench-token"),
    );
    server.latency(latency);
    println!(
        "estate: {objects} objects, {} kinds x {NAMESPACES} namespaces; {} ms per request; HTTPS + token",
        KINDS.len(),
        latency.as_millis()
    );

    if env_number("BENCH_SERVE", 0) == 1 {
        project(dir.path());
        println!(
            "serving until killed; project: {} (e.g. `perf record -g -- chant -C <project> lifecycle diff dev k8s --live --json`)",
            dir.path().display()
        );
        loop {
            std::thread::park();
        }
    }
    let runs = env_number("BENCH_RUNS", 7).max(1) as usize;
    let _warm = chant_describe(dir.path(), &server);
    let chant = median(
        (0..runs)
            .map(|_| chant_describe(dir.path(), &server))
            .collect(),
    );
    let limit = latency.mul_f64(chant.requests as f64 / concurrency as f64);
    println!(
        "chant describe:   {:>9.3} s  {:>5} requests  ({}; median of {runs})",
        chant.wall.as_secs_f64(),
        chant.requests,
        chant.detail
    );
    let network = chant.wall - chant.reading;
    println!(
        "  reading the declared YAML: {:.3} s wall, {:.3} s CPU (connecting, and sending the LISTs the reads are sure of, meanwhile)",
        chant.reading.as_secs_f64(),
        chant.reading_cpu.as_secs_f64(),
    );
    println!(
        "  the reads after that:      {:.3} s wall, {:.3} s CPU in chant, {:.3} s CPU in the fake server (same 2 cores)",
        network.as_secs_f64(),
        chant.client_cpu.as_secs_f64(),
        chant.server_cpu.as_secs_f64(),
    );
    println!(
        "physical limit:   {:>9.3} s  = {} requests x {} ms / concurrency {concurrency}",
        limit.as_secs_f64(),
        chant.requests,
        latency.as_millis(),
    );
    println!(
        "  chant describe is {:.2}x the limit ({:.2}x counted from the end of the YAML)",
        chant.wall.as_secs_f64() / limit.as_secs_f64(),
        network.as_secs_f64() / limit.as_secs_f64()
    );
    let cli = std::env::var("CHANT_BIN").ok().map(|bin| {
        let _warm = chant_cli(dir.path(), &server, &bin);
        let run = median(
            (0..runs)
                .map(|_| chant_cli(dir.path(), &server, &bin))
                .collect(),
        );
        println!(
            "chant diff --live:{:>9.3} s  {:>5} requests  ({}; median of {runs})",
            run.wall.as_secs_f64(),
            run.requests,
            run.detail
        );
        println!(
            "  {:.3} s CPU in chant, {:.3} s CPU in the fake server (same 2 cores)",
            run.client_cpu.as_secs_f64(),
            run.server_cpu.as_secs_f64(),
        );
        let limit = latency.mul_f64(run.requests as f64 / concurrency as f64);
        println!(
            "  limit {:.3} s = {} requests x {} ms / concurrency {concurrency}; diff --live is {:.2}x the limit",
            limit.as_secs_f64(),
            run.requests,
            latency.as_millis(),
            run.wall.as_secs_f64() / limit.as_secs_f64()
        );
        run
    });
    if env_number("BENCH_REQUESTS", 0) == 1 {
        let started = Instant::now();
        let run = match std::env::var("CHANT_BIN") {
            Ok(bin) => chant_cli(dir.path(), &server, &bin),
            Err(_) => chant_describe(dir.path(), &server),
        };
        println!(
            "requests of one more run ({:.3} s):",
            run.wall.as_secs_f64()
        );
        print_requests(&server, started);
    }
    if env_number("BENCH_KUBECTL", 1) == 0 {
        return;
    }
    let kubectl = kubectl(dir.path(), &server);
    println!(
        "kubectl get -f:   {:>9.3} s  {:>5} requests  ({})",
        kubectl.wall.as_secs_f64(),
        kubectl.requests,
        kubectl.detail
    );
    println!(
        "ratio: chant describe is {:.1}x faster than kubectl",
        kubectl.wall.as_secs_f64() / chant.wall.as_secs_f64()
    );
    if let Some(cli) = cli {
        println!(
            "ratio: chant lifecycle diff --live is {:.1}x faster than kubectl",
            kubectl.wall.as_secs_f64() / cli.wall.as_secs_f64()
        );
    }
}
