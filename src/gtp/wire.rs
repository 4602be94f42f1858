//! The wire: preprocessing of raw lines, capped line reading, response
//! framing, the stdin/stdout loop, and an in-memory output for tests.

use super::*;

/// An in-memory output that can be read while a session writes to it
/// (tests, embedding).
#[derive(Clone, Default)]
pub struct SharedBuffer(pub Arc<Mutex<Vec<u8>>>);

impl SharedBuffer {
    /// Everything written so far, as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }
}

impl Write for SharedBuffer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Where responses and streamed analysis go; shared with background
/// analysis so that lines never interleave.
pub type Output = Arc<Mutex<Box<dyn Write + Send>>>;

/// Lines longer than this (in bytes, before preprocessing) are answered
/// with an error and otherwise ignored. The longest legitimate line, a
/// `set_free_handicap` with 624 vertices, is under 3 KB.
pub const MAX_LINE: usize = 16 * 1024;

/// GTP preprocessing (spec 3.1): drop control characters except HT and LF,
/// turn HT into a space, cut `#` comments, trim. Non-ASCII bytes are kept
/// (as U+FFFD) so that garbage is answered, not silently dropped.
/// Returns `None` for a line that is empty afterwards.
pub fn preprocess(raw: &[u8]) -> Option<String> {
    // Work on bytes: GTP control characters are ASCII 0-31 and 127 only;
    // bytes of 128 and above are ordinary (if meaningless) characters.
    let mut bytes = Vec::with_capacity(raw.len());
    for &b in raw {
        match b {
            b'#' => break,
            b'\t' => bytes.push(b' '),
            0..=31 | 127 => {}
            b => bytes.push(b),
        }
    }
    let text = String::from_utf8_lossy(&bytes);
    let trimmed = text.trim_matches(' ');
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}
pub fn format_response(id: Option<&str>, answer: Answer) -> String {
    let (mark, body) = match answer {
        Ok(b) => ('=', b),
        Err(m) => ('?', m),
    };
    let mut body = body.replace('\r', "");
    while body.contains("\n\n") {
        body = body.replace("\n\n", "\n");
    }
    let body = body.trim_end_matches('\n');
    format!("{mark}{} {body}\n\n", id.unwrap_or(""))
}

/// Reads one line of at most `max` bytes into `buf` (without the newline).
/// Returns `Ok(None)` at end of input, otherwise the full length of the
/// line; when that is larger than `max`, only the first `max` bytes are in
/// `buf` and the rest was discarded.
pub fn read_capped_line<R: BufRead>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<Option<usize>> {
    buf.clear();
    let mut total = 0usize;
    let mut any = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(any.then_some(total));
        }
        any = true;
        let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        let room = max.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..used.min(room)]);
        total = total.saturating_add(used);
        reader.consume(if done { used + 1 } else { used });
        if done {
            return Ok(Some(total));
        }
    }
}

/// Runs a session until `quit` or end of input. Write errors (the
/// controller went away) end the session quietly.
pub fn run<R: BufRead, W: Write + Send + 'static>(
    session: &mut Session,
    mut input: R,
    output: W,
) -> io::Result<()> {
    let out: Output = Arc::new(Mutex::new(Box::new(output)));
    session.out = out.clone();
    let mut buf = Vec::with_capacity(256);
    while let Some(len) = read_capped_line(&mut input, &mut buf, MAX_LINE)? {
        let response = if len > MAX_LINE {
            Some(session.too_long(&buf, len))
        } else {
            session.handle_line(&buf)
        };
        if let Some(r) = response {
            let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
            if o.write_all(r.as_bytes()).and_then(|_| o.flush()).is_err() {
                drop(o);
                session.engine.stop_background();
                return Ok(());
            }
        }
        if session.quit_requested() {
            break;
        }
    }
    // End of input or quit: a running analysis ends its response.
    session.engine.stop_background();
    Ok(())
}
