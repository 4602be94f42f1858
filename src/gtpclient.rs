//! A minimal GTP client for driving another engine (GNU Go in the rules
//! cross-check; opponents in matches later).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use thiserror::Error;

#[derive(Debug, Error)]
pub enum ClientError {
    #[error("cannot start '{program}': {source}")]
    Spawn {
        program: String,
        #[source]
        source: std::io::Error,
    },
    #[error("'{program}' closed the connection while answering '{command}'")]
    Closed { program: String, command: String },
    #[error("'{program}' answered '{command}' with '{line}', which is not GTP")]
    Garbled {
        program: String,
        command: String,
        line: String,
    },
    #[error("I/O error talking to '{program}': {source}")]
    Io {
        program: String,
        #[source]
        source: std::io::Error,
    },
}

/// A running GTP engine.
pub struct GtpClient {
    program: String,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// A command's outcome: `Ok(body)` for `=`, `Err(message)` for `?`.
pub type GtpResult = Result<String, String>;

impl GtpClient {
    /// Starts `program` with `args`; its stderr is discarded.
    pub fn spawn(program: &Path, args: &[&str]) -> Result<GtpClient, ClientError> {
        let name = program.display().to_string();
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| ClientError::Spawn {
                program: name.clone(),
                source,
            })?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        Ok(GtpClient {
            program: name,
            child,
            stdin,
            stdout,
        })
    }

    /// Sends one command and reads the whole response.
    pub fn send(&mut self, command: &str) -> Result<GtpResult, ClientError> {
        let io = |source| ClientError::Io {
            program: self.program.clone(),
            source,
        };
        writeln!(self.stdin, "{command}").map_err(io)?;
        self.stdin.flush().map_err(io)?;
        let mut lines: Vec<String> = Vec::new();
        loop {
            let mut line = String::new();
            let n = self
                .stdout
                .read_line(&mut line)
                .map_err(|source| ClientError::Io {
                    program: self.program.clone(),
                    source,
                })?;
            if n == 0 {
                return Err(ClientError::Closed {
                    program: self.program.clone(),
                    command: command.to_string(),
                });
            }
            let line = line.trim_end_matches(['\n', '\r']).to_string();
            if line.is_empty() {
                if lines.is_empty() {
                    continue; // stray blank line before a response
                }
                break;
            }
            lines.push(line);
        }
        let first = lines[0].clone();
        let ok = match first.chars().next() {
            Some('=') => true,
            Some('?') => false,
            _ => {
                return Err(ClientError::Garbled {
                    program: self.program.clone(),
                    command: command.to_string(),
                    line: first,
                });
            }
        };
        // Drop the status character and an optional id.
        let rest = first[1..].trim_start_matches(|c: char| c.is_ascii_digit());
        lines[0] = rest.strip_prefix(' ').unwrap_or(rest).to_string();
        let body = lines.join("\n").trim().to_string();
        Ok(if ok { Ok(body) } else { Err(body) })
    }

    /// Sends a command that must succeed; a `?` answer becomes an error.
    pub fn expect(&mut self, command: &str) -> Result<String, ClientError> {
        match self.send(command)? {
            Ok(body) => Ok(body),
            Err(msg) => Err(ClientError::Garbled {
                program: self.program.clone(),
                command: command.to_string(),
                line: format!("? {msg}"),
            }),
        }
    }
}

impl Drop for GtpClient {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        if self.child.try_wait().ok().flatten().is_none() {
            std::thread::sleep(std::time::Duration::from_millis(20));
            if self.child.try_wait().ok().flatten().is_none() {
                let _ = self.child.kill();
            }
        }
        let _ = self.child.wait();
    }
}
