//! Scale-out on Slurm (`scale/slurm/`): `submit.sh` fits each shard to the partition it reads
//! with `sinfo` (CPUs, memory, time) or refuses at submit, tried with a stand-in `sinfo` and
//! `sbatch`; and on a real single-node Slurm that the test starts on localhost (munged,
//! slurmctld and slurmd in a private folder, stopped at the end whatever happens), the array
//! job and its dependent merge give the merged result of one run over the same seeds. Where
//! Slurm is not installed or cannot start, that test skips and says why.

use e2e::{assert_same_campaign, bin, command, on_path, repo_root, summary};
use std::ffi::OsStr;
use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt as _, PermissionsExt as _};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A stand-in for Slurm's `sbatch`: appends its arguments to `$SBATCH_LOG`, runs the job
/// script at once, every task of an `--array` in turn (with `SLURM_ARRAY_TASK_ID` and the
/// `--cpus-per-task` as `SLURM_CPUS_PER_TASK`), in `--chdir`, and prints a job id.
const FAKE_SBATCH: &str = r#"#!/usr/bin/env bash
echo "$*" >>"$SBATCH_LOG"
array="" chdir=. cpus=1
while [[ $1 == --* ]]; do
    case $1 in
        --array=*) array=${1#--array=} ;;
        --chdir=*) chdir=${1#--chdir=} ;;
        --cpus-per-task=*) cpus=${1#--cpus-per-task=} ;;
    esac
    shift
done
script=$1
shift
cd "$chdir"
if [ -n "$array" ]; then
    for k in $(seq "${array%-*}" "${array#*-}"); do
        SLURM_ARRAY_TASK_ID=$k SLURM_CPUS_PER_TASK=$cpus bash "$script" "$@" >&2 || echo "task $k failed" >&2
    done
else
    bash "$script" "$@" >&2
fi
echo "$RANDOM;cluster"
"#;

/// A stand-in for `sinfo`: one partition, `debug`, the default, whose nodes are
/// `$FAKE_NODES` (lines of CPUs and MiB) and whose time limit is `$FAKE_LIMIT`.
const FAKE_SINFO: &str = r#"#!/usr/bin/env bash
for arg in "$@"; do
    case $arg in
        %P) echo 'debug*' ;;
        '%c %m') printf '%s\n' "$FAKE_NODES" ;;
        %l) echo "$FAKE_LIMIT" ;;
    esac
done
"#;

/// A folder of the stand-in `sbatch` and `sinfo`, and the PATH that finds them first.
fn stand_ins(dir: &Path) -> String {
    let bin_dir = dir.join("bin");
    std::fs::create_dir(&bin_dir).unwrap();
    for (name, text) in [("sbatch", FAKE_SBATCH), ("sinfo", FAKE_SINFO)] {
        let path = bin_dir.join(name);
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap())
}

/// `scale/slurm/submit.sh ARGS` with the stand-ins, a partition of `nodes` and time limit
/// `limit`, and the campaign settings `envs`; its output and the `sbatch` command lines.
/// `bash scale/slurm/submit.sh` with this build's mbt, free of the submit settings
/// (`PARTITION`, `CPUS`, ...) and the test-only injection variables a test run may inherit: a
/// test sets the ones it means.
fn submit_command() -> Command {
    let mut cmd = Command::new("bash");
    cmd.arg(repo_root().join("scale/slurm/submit.sh"))
        .env("MBT", bin("mbt"));
    for name in [
        "PARTITION",
        "SBATCH_PARTITION",
        "SBATCH_ARGS",
        "CPUS",
        "MEM_PER_CPU",
        "TIME",
        "UNTRACE_INJECT",
        "UNTRACE_FAIL_ON",
        "UNTRACE_INJECT_OTHER",
        "MBT_INJECT",
    ] {
        cmd.env_remove(name);
    }
    cmd
}

fn submit_with_stand_ins(
    dir: &Path,
    nodes: &str,
    limit: &str,
    args: &[&str],
    envs: &[(&str, &str)],
) -> (Output, String) {
    let log = dir.join("sbatch.log");
    let mut cmd = submit_command();
    cmd.args(args)
        .env("PATH", stand_ins(dir))
        .env("SBATCH_LOG", &log)
        .env("FAKE_NODES", nodes)
        .env("FAKE_LIMIT", limit);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (out, std::fs::read_to_string(&log).unwrap_or_default())
}

/// `scale/slurm/submit.sh` with a stand-in `sbatch`: the array's shards and the dependent
/// merge give `OUT/all` with its report, the findings of one run over the same seeds; the
/// shards ask for what the partition's smallest node has (2 CPUs, not 4; mbt's `--memout`
/// per CPU), and run a worker per CPU.
#[test]
fn the_slurm_job_files_run_the_shards_and_the_merge() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("night");
    let (run, sbatch) = submit_with_stand_ins(
        dir.path(),
        "8 64000\n2 3000",
        "2-00:00:00",
        &["--theories", "core", "--memout", "1200"],
        &[
            ("OUT", out.to_str().unwrap()),
            ("SEED", "5"),
            ("SHARDS", "2"),
            ("ROUNDS", "3"),
            ("MBT_INJECT", "abort@3"),
        ],
    );
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{err}");
    let lines: Vec<&str> = sbatch.lines().collect();
    assert_eq!(lines.len(), 2, "{sbatch}");
    assert!(
        lines[0].starts_with(
            "--parsable --partition=debug --mem-per-cpu=1200 --cpus-per-task=2 --time=540 "
        ),
        "{sbatch}"
    );
    assert!(lines[0].contains(" --array=0-1 "), "{sbatch}");
    assert!(
        lines[1].starts_with(
            "--parsable --partition=debug --mem-per-cpu=1200 --cpus-per-task=1 --time=60 "
        ),
        "{sbatch}"
    );
    assert!(lines[1].contains(" --dependency=afterany:"), "{sbatch}");
    let merged = summary(&out.join("all"));
    assert_eq!(merged["rounds"], 6, "{err}");
    assert_eq!(
        merged["failed_seeds"],
        serde_json::json!([5, 6, 7, 8, 9, 10])
    );
    assert_eq!(merged["merged_from"].as_array().unwrap().len(), 2);
    let shard = summary(&out.join("shard-0"));
    let argv = shard["argv"].to_string();
    assert!(argv.contains(r#""--jobs","2""#), "{argv}");
    let page = std::fs::read_to_string(out.join("all/report.html")).unwrap();
    assert!(page.contains("2 shards merged"));
}

/// `submit.sh` on a partition of `nodes` with time limit `limit` and the settings `envs`
/// exits 2 with one line that contains `message`, and submits nothing.
fn assert_refused(nodes: &str, limit: &str, envs: &[(&str, &str)], message: &str) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("night");
    let mut all = vec![("OUT", out.to_str().unwrap()), ("SEED", "1")];
    all.extend_from_slice(envs);
    let (run, sbatch) = submit_with_stand_ins(dir.path(), nodes, limit, &[], &all);
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains(message), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(sbatch, "", "nothing is submitted");
}

/// What cannot fit the partition is refused at submit with one line saying why, and nothing
/// is submitted: a node without the memory of one worker, a campaign longer than the
/// partition's time limit, a partition that is not there.
#[test]
fn a_campaign_that_cannot_fit_the_partition_is_refused_at_submit() {
    assert_refused(
        "4 1000",
        "infinite",
        &[],
        "its smallest node has 1000 MiB of memory, less than the 2048 MiB one worker needs",
    );
    assert_refused(
        "4 64000",
        "8:00:00",
        &[("TIME", "28800")],
        "partition debug allows 480 minutes per job; a shard of TIME=28800 needs 540",
    );
    // sinfo lists no node for a partition that is not there.
    assert_refused(
        "",
        "infinite",
        &[("PARTITION", "gpu")],
        "partition gpu has no nodes",
    );
}

/// A program of Slurm or munge: on PATH or in an sbin folder (daemons are).
fn program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin", "/usr/local/sbin"].map(PathBuf::from))
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// A free TCP port on localhost (the test's Slurm must not meet another).
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// The last lines of a daemon's log, for a message.
fn tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(8)..].join("\n")
}

/// A private single-node Slurm on localhost: munged, slurmctld and slurmd, each in a process
/// group of its own, with their key, sockets, state, spool and logs in a 0700 folder.
/// Dropping it cancels its jobs and kills the daemons' process groups.
struct Cluster {
    dir: tempfile::TempDir,
    conf: PathBuf,
    daemons: Vec<(&'static str, Child)>,
}

impl Cluster {
    /// Starts the cluster, or says why it cannot (then the test skips).
    fn start() -> Result<Cluster, String> {
        // The owner of /proc/self is the effective user.
        let uid = std::fs::metadata("/proc/self").map_or(u32::MAX, |m| m.uid());
        if uid != 0 {
            return Err("not root (slurmd runs the jobs of their users only as root)".into());
        }
        let mut programs = Vec::new();
        for name in ["munged", "slurmctld", "slurmd"] {
            programs.push(program(name).ok_or(format!(
                "{name} is not installed (.ci/install-deps installs slurm-wlm and munge)"
            ))?);
        }
        for name in ["sbatch", "sinfo", "squeue", "scancel"] {
            if !on_path(name) {
                return Err(format!(
                    "{name} is not on PATH (slurm-wlm's client commands)"
                ));
            }
        }
        let [munged, slurmctld, slurmd] = <[PathBuf; 3]>::try_from(programs).unwrap();
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
        let conf = dir.path().join("slurm.conf");
        let mut cluster = Cluster {
            dir,
            conf,
            daemons: Vec::new(),
        };
        let root = cluster.dir.path().to_path_buf();
        for sub in ["munge", "state", "spool", "log"] {
            std::fs::create_dir(root.join(sub)).unwrap();
        }

        // munge: a random key only root reads, the daemon in the foreground. --force: its
        // socket's folder is private (munged wants it open to every user, who would talk to
        // it; here every process is root).
        let key = root.join("munge/munge.key");
        let mut random = [0u8; 128];
        std::io::Read::read_exact(
            &mut std::fs::File::open("/dev/urandom").map_err(|e| e.to_string())?,
            &mut random,
        )
        .map_err(|e| format!("/dev/urandom: {e}"))?;
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&key)
            .unwrap();
        std::io::Write::write_all(&mut file, &random).unwrap();
        drop(file);
        let socket = root.join("munge/munge.socket");
        let munge_args: Vec<std::ffi::OsString> = vec![
            "--foreground".into(),
            "--force".into(),
            format!("--key-file={}", key.display()).into(),
            format!("--socket={}", socket.display()).into(),
            format!("--pid-file={}", root.join("munge/munged.pid").display()).into(),
            format!("--seed-file={}", root.join("munge/munged.seed").display()).into(),
            format!("--log-file={}", root.join("log/munged.log").display()).into(),
        ];
        cluster.spawn("munged", &munged, &munge_args)?;
        cluster.wait_for("munged to make its socket", Duration::from_secs(15), || {
            socket.exists()
        })?;

        let memory_mib = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|m| {
                let line = m.lines().find(|l| l.starts_with("MemTotal:"))?.to_string();
                line.split_whitespace().nth(1)?.parse::<u64>().ok()
            })
            .ok_or("cannot read MemTotal of /proc/meminfo")?
            / 1024;
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let host = nix::unistd::gethostname()
            .map_err(|e| e.to_string())?
            .into_string()
            .map_err(|_| "the host name is not UTF-8")?;
        let short_host = host.split('.').next().unwrap_or(&host).to_string();
        let path = |sub: &str| root.join(sub).display().to_string();
        // No cgroups, accounting or MPI: what a job needs on one node, and nothing of the
        // host's own Slurm (ports are free ones, every file is in the private folder).
        let conf_text = format!(
            "ClusterName=mbttest\n\
             SlurmctldHost={short_host}(127.0.0.1)\n\
             SlurmctldPort={ctld_port}\n\
             SlurmdPort={slurmd_port}\n\
             SlurmUser=root\n\
             SlurmdUser=root\n\
             AuthType=auth/munge\n\
             CredType=cred/munge\n\
             AuthInfo=socket={socket}\n\
             StateSaveLocation={state}\n\
             SlurmdSpoolDir={spool}\n\
             SlurmctldPidFile={ctld_pid}\n\
             SlurmdPidFile={slurmd_pid}\n\
             SlurmctldLogFile={ctld_log}\n\
             SlurmdLogFile={slurmd_log}\n\
             MailProg=/bin/true\n\
             ProctrackType=proctrack/linuxproc\n\
             TaskPlugin=task/none\n\
             JobAcctGatherType=jobacct_gather/none\n\
             AccountingStorageType=accounting_storage/none\n\
             JobCompType=jobcomp/none\n\
             MpiDefault=none\n\
             SwitchType=switch/none\n\
             SelectType=select/cons_tres\n\
             SelectTypeParameters=CR_CPU_Memory\n\
             ReturnToService=2\n\
             NodeName=localhost NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={memory} State=UNKNOWN\n\
             PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP\n",
            ctld_port = free_port(),
            slurmd_port = free_port(),
            socket = socket.display(),
            state = path("state"),
            spool = path("spool"),
            ctld_pid = path("slurmctld.pid"),
            slurmd_pid = path("slurmd.pid"),
            ctld_log = path("log/slurmctld.log"),
            slurmd_log = path("log/slurmd.log"),
            // Less than the machine has, or slurmd drains the node ("Low RealMemory").
            memory = memory_mib * 9 / 10,
        );
        std::fs::write(&cluster.conf, conf_text).unwrap();
        let conf_args = [
            "-D".into(),
            "-f".into(),
            cluster.conf.clone().into_os_string(),
        ];
        cluster.spawn("slurmctld", &slurmctld, &conf_args)?;
        let mut slurmd_args = conf_args.to_vec();
        slurmd_args.extend(["-N".into(), "localhost".into()]);
        cluster.spawn("slurmd", &slurmd, &slurmd_args)?;
        let conf = cluster.conf.clone();
        cluster.wait_for("the node to be idle", Duration::from_secs(60), || {
            let out = Command::new("sinfo")
                .env("SLURM_CONF", &conf)
                .args(["-h", "-N", "-o", "%T"])
                .output();
            out.is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "idle")
        })?;
        Ok(cluster)
    }

    /// Starts daemon `name` in a process group of its own, output to `log/NAME.out`, killed
    /// when the test's thread ends even if the test process is killed (parent-death signal).
    fn spawn(
        &mut self,
        name: &'static str,
        program: &Path,
        args: &[std::ffi::OsString],
    ) -> Result<(), String> {
        let log = std::fs::File::create(self.log(name)).unwrap();
        let mut cmd = Command::new(program);
        cmd.args(args)
            .env("SLURM_CONF", &self.conf)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .process_group(0);
        // SAFETY: prctl is async-signal-safe; nothing else runs between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL)
                    .map_err(std::io::Error::from)
            });
        }
        let child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", program.display()))?;
        self.daemons.push((name, child));
        Ok(())
    }

    fn log(&self, name: &str) -> PathBuf {
        self.dir.path().join("log").join(format!("{name}.out"))
    }

    /// Waits at most `limit` until `ready`; an error naming what did not happen, with the
    /// logs of the daemons (and which of them ended), otherwise.
    fn wait_for(
        &mut self,
        what: &str,
        limit: Duration,
        mut ready: impl FnMut() -> bool,
    ) -> Result<(), String> {
        let start = Instant::now();
        while start.elapsed() < limit {
            if ready() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        let mut why = format!("waited {limit:?} for {what}");
        for (name, child) in &mut self.daemons {
            if let Ok(Some(status)) = child.try_wait() {
                why.push_str(&format!("; {name} ended ({status})"));
            }
        }
        for (name, _) in &self.daemons {
            why.push_str(&format!("\n--- {name}:\n{}", tail(&self.log(name))));
        }
        Err(why)
    }

    /// A command of Slurm's (`sinfo`, `squeue`, ...) that talks to this cluster.
    fn client(&self, program: &str) -> Command {
        let mut cmd = Command::new(program);
        cmd.env("SLURM_CONF", &self.conf);
        cmd
    }

    /// The state of job `id` (`COMPLETED`, `FAILED`, `PENDING`, ...).
    fn job_state(&self, id: &str) -> String {
        let out = self
            .client("squeue")
            .args(["-h", "-t", "all", "-j", id, "-o", "%T"])
            .output()
            .expect("run squeue");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Every job of the cluster with its state and reason, for a message.
    fn queue(&self) -> String {
        let out = self
            .client("squeue")
            .args(["-t", "all", "-o", "%i %T %r %C %m %l"])
            .output()
            .expect("run squeue");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // The jobs first (slurmd's job steps are not in its process group), then the daemons,
        // whole process groups: politely, then for good.
        let _ = self
            .client("scancel")
            .args(["--user", "root"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            let out = self.client("squeue").args(["-h", "-o", "%i"]).output();
            if out.map_or(true, |o| o.stdout.is_empty()) {
                break;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        use nix::sys::signal::{killpg, Signal};
        use nix::unistd::Pid;
        for (_, child) in self.daemons.iter().rev() {
            let _ = killpg(Pid::from_raw(child.id() as i32), Signal::SIGTERM);
        }
        let start = Instant::now();
        for (_, child) in self.daemons.iter_mut().rev() {
            while start.elapsed() < Duration::from_secs(5) {
                if !matches!(child.try_wait(), Ok(None)) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = killpg(Pid::from_raw(child.id() as i32), Signal::SIGKILL);
            let _ = child.wait();
        }
    }
}

/// The campaign of the real-Slurm test: 3 shards of 4 rounds, an injected error that some
/// rounds hit, 1024 MiB per round and worker.
const SEED: &str = "1";
const SHARDS: u64 = 3;
const ROUNDS: u64 = 4;
const FAULT: &str = "error@push";
const FLAGS: [&str; 2] = ["--memout", "1024"];

/// On a real single-node Slurm started by the test: `submit.sh` asks for CPUs the node has
/// (it has fewer than shard.sbatch's 4 when it has 2, where the job used to be pending
/// forever), the array's shards run and the dependent merge writes `OUT/all`, which is the
/// campaign one machine runs over the same seeds.
#[test]
fn a_real_slurm_runs_the_array_job_and_the_merge_like_one_machine() {
    let cluster = match Cluster::start() {
        Ok(cluster) => cluster,
        Err(why) => {
            eprintln!(
                "SKIPPED: a_real_slurm_runs_the_array_job_and_the_merge_like_one_machine: \
                 no private Slurm: {why}"
            );
            return;
        }
    };
    let out = cluster.dir.path().join("night");
    let submit = submit_command()
        .args(FLAGS)
        .env("SLURM_CONF", &cluster.conf)
        .env("OUT", &out)
        .env("SEED", SEED)
        .env("SHARDS", SHARDS.to_string())
        .env("ROUNDS", ROUNDS.to_string())
        .env("UNTRACE_INJECT", FAULT)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&submit.stdout).into_owned();
    assert!(
        submit.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&submit.stderr)
    );
    let node_cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cpus = node_cpus.min(4);
    assert!(
        said.contains(&format!("{SHARDS} shards of {cpus} CPUs, 1024 MiB per CPU")),
        "{said}"
    );
    let merge = said
        .split("merge: job ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .unwrap_or_else(|| panic!("no merge job in: {said}"))
        .to_string();

    // The single run meanwhile, then wait for the merge to end (bounded).
    let single = cluster.dir.path().join("single");
    let rounds = (SHARDS * ROUNDS).to_string();
    let mut args = vec!["--seed", SEED, "--rounds", &rounds, "--jobs", "1", "-q"];
    args.extend(FLAGS);
    args.extend(["--out", single.to_str().unwrap()]);
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    let one = command("mbt", &args, &[("UNTRACE_INJECT", FAULT)])
        .output()
        .unwrap();
    assert!(matches!(one.status.code(), Some(0 | 1)), "{one:?}");
    let start = Instant::now();
    let state = loop {
        let state = cluster.job_state(&merge);
        if !matches!(
            state.as_str(),
            "PENDING" | "RUNNING" | "CONFIGURING" | "COMPLETING"
        ) {
            break state;
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the jobs did not end in 5 minutes:\n{}",
            cluster.queue()
        );
        std::thread::sleep(Duration::from_millis(250));
    };
    let logs: String = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "log"))
        .map(|p| format!("--- {}:\n{}", p.display(), tail(&p)))
        .collect();
    assert_eq!(state, "COMPLETED", "{}{logs}", cluster.queue());
    for k in 0..SHARDS {
        let shard = summary(&out.join(format!("shard-{k}")));
        let argv = shard["argv"].to_string();
        assert!(argv.contains(&format!(r#""--jobs","{cpus}""#)), "{argv}");
    }
    assert_same_campaign(&out.join("all"), &single);
    let page = std::fs::read_to_string(out.join("all/report.html")).unwrap();
    assert!(page.contains(&format!("{SHARDS} shards merged")), "{logs}");
}
