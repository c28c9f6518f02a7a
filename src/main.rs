use chant::cli::{Cli, Command};
use chant::commands::{self, ExitStatus};
use chant::error::{CliError, render_diagnostic};
use chant::output::Output;
use clap::{CommandFactory, Parser};
use std::process::ExitCode;

// A deep diff allocates a node per path on both sides; glibc's allocator spent a fifth of
// `diff --live`'s CPU in malloc and free, mimalloc a fraction of that.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // Ended by quick_exit, which leaves every allocation to the operating system.
    chant_lexicon::parallel::ends_with_its_command();
    let cli = Cli::parse();
    let output = Output::new(cli.global.color);
    init_tracing(cli.global.verbose);
    if let Command::Completions { shell } = cli.command {
        clap_complete::generate(shell, &mut Cli::command(), "chant", &mut std::io::stdout());
        return ExitCode::SUCCESS;
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            output.error(&format!("could not start the async runtime: {error}"), None);
            return ExitCode::FAILURE;
        }
    };
    let status = match runtime.block_on(commands::run(cli, output.clone())) {
        Ok(status) => status,
        Err(CliError::Diagnostic(diagnostic)) => {
            output.eprint(render_diagnostic(&diagnostic, output.stderr_color()).trim_end());
            ExitStatus::Error
        }
        Err(CliError::Message { message, hint }) => {
            output.error(&message, hint.as_deref());
            ExitStatus::Error
        }
    };
    chant::quick_exit::exit(status.code())
}

fn init_tracing(verbose: u8) {
    let level = match verbose {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("CHANT_LOG").unwrap_or_else(|_| {
        tracing_subscriber::EnvFilter::new(format!("chant={level},chant_lexicon={level}"))
    });
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .without_time()
        .try_init();
}
