//! One search: iterations until a limit, with iterative deepening (an
//! iteration ends and the tree is dropped when expansions mostly miss the
//! table, at a doubling budget, or when the tree is full), the threads of
//! an iteration, and the result.

use std::sync::atomic::AtomicUsize;

use parking_lot::Mutex;

use super::*;

impl Searcher {
    /// Runs a search for `color` in `game` with playout komi `komi`
    /// (Black's view; dynamic komi included by the caller). `report` is
    /// called every `limits.report_every` from the calling thread.
    ///
    /// With a table that admits the game, expansions probe it and the tree
    /// is stored into it at the end. With iterative deepening on (the
    /// `id_mode` weight), the search runs in iterations: when an iteration
    /// has used its budget and the recent expansions mostly miss the table
    /// (mode 1), or at once (mode 2), its tree is stored and dropped and a
    /// larger iteration starts, provided the limits leave room for it. A
    /// larger iteration starts from the subtree reused from the previous
    /// move, if there was one, or else from an empty tree. In mode 3 the
    /// search is one tree, reused from the previous move, until the tree
    /// reaches its memory cap; then it is stored, and the next iteration
    /// starts from a copy of its most visited part (`id_full_keep` of the
    /// cap), provided the limits leave room for `id_full_room` times the
    /// playouts the full iteration ran.
    pub fn search(
        &mut self,
        game: &Game,
        color: Color,
        komi: f64,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Snapshot),
    ) -> SearchResult {
        let start = Instant::now();
        self.set_root(game, color, komi);
        self.searches += 1;
        self.playouts_before = 0;
        let writable = self.table.as_ref().is_some_and(|t| t.read_only().is_none());
        let id_mode = if self.table_on && writable {
            self.params.id_mode
        } else {
            IdMode::Off
        };
        let mut budget = self.params.id_first;
        let threads = self.config.threads.max(1);
        let mut workers: Vec<Worker> = (0..threads).map(|t| self.new_worker(t)).collect();
        // The subtree reused from the previous move, kept aside so that an
        // iteration's restart goes back to it rather than to an empty tree.
        // Mode 3 restarts because the tree is full: from its top.
        let keeps = matches!(id_mode, IdMode::OnMisses | IdMode::Doubling);
        let kept = (keeps && self.arena.get(self.root).visits.load(Relaxed) > 0).then(|| {
            let mut a = Arena::new(self.config.max_tree_bytes);
            a.copy_subtree(&self.arena, self.root);
            a
        });
        let mut iterations = Vec::new();
        // Reports keep their pace across restarts (iterations may be
        // shorter than the report interval).
        let mut last_report = Instant::now();
        let (marked_pv, snapshot) = loop {
            self.playouts.store(0, Relaxed);
            self.started.store(0, Relaxed);
            self.hits.store(0, Relaxed);
            self.misses.store(0, Relaxed);
            self.full_at.store(0, Relaxed);
            self.stop_workers.store(false, Relaxed);
            self.expand_root(color);
            let end = self.run_iteration(
                &mut workers,
                limits,
                id_mode,
                budget,
                (start, &mut last_report),
                stop,
                report,
            );
            let playouts = self.playouts.load(Relaxed);
            let snap = self.snapshot(start.elapsed());
            let (best, winrate, visits) = snap
                .best()
                .map_or((Move::Pass, 0.5, 0), |c| (c.mv, c.winrate, c.visits));
            let mut counts = Counts {
                hits: self.hits.load(Relaxed),
                misses: self.misses.load(Relaxed),
                ..Counts::default()
            };
            let marked = if end == IterationEnd::Done {
                self.marked_pv(24)
            } else {
                Vec::new()
            };
            self.store_tree(&mut counts);
            if let Some(t) = &self.table
                && self.table_on
            {
                t.record(counts);
            }
            let cumulative = self.playouts_before + playouts;
            let it = Iteration {
                number: iterations.len() as u32 + 1,
                best,
                winrate,
                visits,
                hits: counts.hits,
                misses: counts.misses,
                playouts,
                cumulative,
                restarted: end == IterationEnd::Restart,
            };
            if id_mode != IdMode::Off
                && let Some(log) = &mut self.iteration_log
            {
                log(&it);
            }
            iterations.push(it);
            if end == IterationEnd::Done {
                break (marked, snap);
            }
            self.playouts_before = cumulative;
            budget = budget.max(playouts as f64) * self.params.id_growth;
            self.root = match &kept {
                Some(k) => self.arena.copy_subtree(k, 0),
                None if id_mode == IdMode::OnFull => {
                    let cap = self.arena.capacity();
                    let keep = (self.params.id_full_keep * cap as f64) as usize;
                    let mut fresh = Arena::new(self.config.max_tree_bytes);
                    let root = fresh.copy_top(&self.arena, self.root, keep);
                    self.arena = fresh;
                    root
                }
                None => self.arena.new_root(),
            };
        };
        self.store_ownership(&workers, color);
        if let Some(t) = &self.table {
            t.maybe_flush(Duration::from_secs(30));
        }
        let (best, winrate) = match snapshot.best() {
            Some(c) => (c.mv, c.winrate),
            None => (Move::Pass, 0.5),
        };
        SearchResult {
            snapshot,
            best,
            winrate,
            marked_pv,
            iterations,
            book: None,
        }
    }

    /// Expands the root at once, so that every thread starts below it.
    fn expand_root(&self, color: Color) {
        let mut scratch = Scratch::default();
        let root = self.arena.get(self.root);
        if root.state.load(Acquire) == LEAF {
            self.expand(
                root,
                &self.root_board,
                color,
                (self.root_last, self.root_last2),
                &mut scratch,
                true,
            );
        }
    }

    /// Keeps the workers' average ownership of this search's playouts,
    /// for the root position with `color` to move.
    fn store_ownership(&mut self, workers: &[Worker], color: Color) {
        let n = self.root_board.points().len();
        let mut sum = vec![0i64; n];
        let mut count = 0i64;
        for w in workers {
            for (s, o) in sum.iter_mut().zip(&w.own) {
                *s += *o as i64;
            }
            count += w.own_n as i64;
        }
        if count > 0 {
            let own = sum
                .iter()
                .map(|&s| (s as f64 / count as f64) as f32)
                .collect();
            self.ownership = Some((self.root_board.key(color), own));
        }
    }

    /// Runs the threads of one iteration until a limit, the stop flag or
    /// (iterative deepening) a restart, reporting every
    /// `limits.report_every` since `last_report`.
    ///
    /// The restart decision is taken by the workers after each playout, at
    /// exact playout counts, so that `--threads 1 --playouts N` with the
    /// same table contents restarts at the same playout every time; the
    /// calling thread only watches the clock, the stop flag and reports.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn run_iteration(
        &self,
        workers: &mut [Worker],
        limits: &Limits,
        id_mode: IdMode,
        budget: f64,
        (start, last_report): (Instant, &mut Instant),
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Snapshot),
    ) -> IterationEnd {
        let before = self.playouts_before;
        let it_limit = limits.playouts.map(|n| n.saturating_sub(before));
        let id = (id_mode != IdMode::Off).then(|| Deepening {
            mode: id_mode,
            budget,
            limits,
            start,
            before,
            window: Mutex::new(Window::default()),
            restart: AtomicBool::new(false),
        });
        let id = id.as_ref();
        // Workers still running; a worker that ends (or panics: the scope
        // re-raises the panic once this returns) counts itself out, so the
        // loop below never waits for playouts nobody will run.
        let running = AtomicUsize::new(workers.len());
        struct CountOut<'a>(&'a AtomicUsize);
        impl Drop for CountOut<'_> {
            fn drop(&mut self) {
                self.0.fetch_sub(1, AcqRel);
            }
        }
        std::thread::scope(|s| {
            for w in workers.iter_mut() {
                let running = &running;
                s.spawn(move || {
                    let _out = CountOut(running);
                    self.work(w, it_limit, id)
                });
            }
            loop {
                std::thread::sleep(Duration::from_millis(2));
                if id.is_some_and(|id| id.restart.load(Acquire)) {
                    return IterationEnd::Restart;
                }
                if running.load(Acquire) == 0 {
                    return IterationEnd::Done;
                }
                let elapsed = start.elapsed();
                let done = self.playouts.load(Relaxed);
                let total = before + done;
                let extending =
                    || limits.extend_to.is_some_and(|m| elapsed < m) && self.choice_unsettled();
                let mut end = (stop.load(Relaxed)
                    || limits.playouts.is_some_and(|n| total >= n)
                    || limits.time.is_some_and(|t| elapsed >= t && !extending()))
                .then_some(IterationEnd::Done);
                let rate = total as f64 / elapsed.as_secs_f64().max(1e-6);
                if end.is_none()
                    && limits.early_stop
                    && let Some(t) = limits.time
                    && elapsed > t / 10
                {
                    // Past `t` only while extending; an unsettled choice
                    // is never cut short.
                    let remaining = rate * t.saturating_sub(elapsed).as_secs_f64();
                    let (a, b) = self.top_two_visits();
                    if cannot_be_overtaken(done, a - b, remaining) && !extending() {
                        end = Some(IterationEnd::Done);
                    }
                }
                if let Some(end) = end {
                    self.stop_workers.store(true, Relaxed);
                    // A worker may have asked for a restart meanwhile; the
                    // limit reached wins.
                    return end;
                }
                if let Some(every) = limits.report_every
                    && last_report.elapsed() >= every
                {
                    *last_report = Instant::now();
                    report(&self.snapshot(start.elapsed()));
                }
            }
        })
    }

    /// After a playout of an iteration with iterative deepening: true (and
    /// the workers are told to stop) if the iteration should end and a
    /// larger one start. Mode 1 restarts once the iteration has used its
    /// budget and the share of table misses over the last `id_window`
    /// expansions exceeds `id_miss_share`; mode 2 as soon as the budget is
    /// used. Either way only if the limits leave room for the next one.
    /// Mode 3 restarts once the tree is full, if the limits leave room for
    /// `id_full_room` times this iteration's playouts.
    pub(super) fn deepening_restart(&self, id: &Deepening) -> bool {
        let p = self.params;
        let done = self.playouts.load(Relaxed);
        if id.mode == IdMode::OnFull {
            if !self.arena.is_full() {
                return false;
            }
            let room = p.id_full_room * done as f64;
            return room <= self.remaining(id, done) && self.claim_restart(id);
        }
        if (done as f64) < id.budget {
            return false;
        }
        let share = {
            let (h, m) = (self.hits.load(Relaxed), self.misses.load(Relaxed));
            let mut w = id.window.lock();
            let (dh, dm) = (h - w.start.0, m - w.start.1);
            if dh + dm >= p.id_window {
                w.share = dm as f64 / (dh + dm) as f64;
                w.start = (h, m);
            }
            w.share
        };
        if id.mode != IdMode::Doubling && share <= p.id_miss_share {
            return false;
        }
        let next = id.budget.max(done as f64) * p.id_growth;
        next <= self.remaining(id, done) && self.claim_restart(id)
    }

    /// Playouts the limits leave after `done` of this iteration: those of
    /// a playout limit, or the time left at the search's rate so far.
    fn remaining(&self, id: &Deepening, done: u64) -> f64 {
        let total = id.before + done;
        let mut remaining = f64::INFINITY;
        if let Some(n) = id.limits.playouts {
            remaining = remaining.min(n.saturating_sub(total) as f64);
        }
        if let Some(t) = id.limits.time {
            let elapsed = id.start.elapsed();
            let rate = total as f64 / elapsed.as_secs_f64().max(1e-6);
            remaining = remaining.min(rate * t.saturating_sub(elapsed).as_secs_f64());
        }
        remaining
    }

    /// True for the one worker that decides the restart (the workers are
    /// told to stop); false for any other.
    fn claim_restart(&self, id: &Deepening) -> bool {
        if id.restart.swap(true, AcqRel) {
            return false;
        }
        self.stop_workers.store(true, Relaxed);
        true
    }
}

/// Playouts a search runs before it may stop early: with fewer, the rate
/// is not known (a slow first playout once ended searches after one
/// playout, its own virtual loss counting as a lead) and the lead is noise.
const EARLY_STOP_MIN_PLAYOUTS: u64 = 100;

/// The early stop's test: after `done` playouts, the most visited move
/// leads the second by `lead` visits, and `remaining` more playouts fit in
/// the time left.
fn cannot_be_overtaken(done: u64, lead: u32, remaining: f64) -> bool {
    done >= EARLY_STOP_MIN_PLAYOUTS && lead as f64 > remaining
}

/// The iterative-deepening state of one iteration, shared by its workers.
pub(super) struct Deepening<'a> {
    mode: IdMode,
    /// Playouts this iteration may use before it may restart.
    budget: f64,
    limits: &'a Limits,
    start: Instant,
    /// Playouts of the earlier iterations of this search.
    before: u64,
    window: Mutex<Window>,
    /// Set by the worker that decided to restart.
    restart: AtomicBool,
}

/// Table hits and misses at the start of the current window, and the miss
/// share of the last complete window.
#[derive(Default)]
struct Window {
    start: (u64, u64),
    share: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_early_stop_before_the_rate_is_known() {
        // One playout in flight after a slow start: its virtual loss is
        // the only "lead", and no playout has finished to give a rate.
        assert!(!cannot_be_overtaken(0, 1, 0.0));
        assert!(!cannot_be_overtaken(99, 50, 10.0));
        assert!(cannot_be_overtaken(1000, 500, 499.0));
        assert!(!cannot_be_overtaken(1000, 500, 500.0));
    }
}
