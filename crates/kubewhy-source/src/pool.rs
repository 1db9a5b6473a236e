//! The loader's workers: one thread per core takes the next file, or the next block of a large
//! list being streamed (`stream.rs`), whichever is waiting; blocks go first, so memory holds a
//! few of them, never a whole file. A thread that starts a large list becomes its reader: it
//! reads blocks and queues them for every thread, and when more are queued than there are
//! threads, it decodes one itself instead of reading on (the queue never grows past that).
//!
//! Results are put back in input order (file, then block), so what is loaded never depends on
//! which thread was faster. A streamed list that turns out not to be laid out as its head
//! promised, or that has anything wrong in it, is read again whole, after the others, by the
//! careful path (`load_job`), which reports each problem at its position.

use crate::stream::{self, Blocks, Buffers, Head};
use crate::{FileOut, Job, load_job};
use kubewhy_model::Snapshot;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

/// Loads every job on all cores; one `FileOut` per job, in order.
pub(crate) fn run(jobs: &[Job], anchor: jiff::Timestamp) -> Vec<FileOut> {
    let mut outs = Pool::new(jobs, anchor, true).run_all();
    // Streamed lists that gave way: read whole, in parallel among themselves.
    let retry: Vec<usize> = (0..jobs.len()).filter(|&i| outs[i].is_none()).collect();
    if !retry.is_empty() {
        let again: Vec<Job> = retry.iter().map(|&i| jobs[i].clone()).collect();
        let careful = Pool::new(&again, anchor, false).run_all();
        for (i, out) in retry.into_iter().zip(careful) {
            outs[i] = out;
        }
    }
    outs.into_iter().map(Option::unwrap_or_default).collect()
}

struct Pool<'a> {
    jobs: &'a [Job],
    anchor: jiff::Timestamp,
    threads: usize,
    /// Whether large lists may be streamed (not when reading again those that gave way).
    stream: bool,
    next: AtomicUsize,
    queue: Mutex<Queue>,
    /// Signalled when a block is queued or a reader finishes.
    ready: Condvar,
    done: Mutex<Vec<(usize, Done)>>,
    buffers: Buffers,
}

#[derive(Default)]
struct Queue {
    blocks: VecDeque<Block>,
    /// Files being read as streams: while any is, idle threads wait for their blocks.
    readers: usize,
}

/// A block of a streamed list, `[item, …]`, and how to decode its items.
struct Block {
    job: usize,
    seq: usize,
    bytes: Vec<u8>,
    item_kind: String,
    api: String,
}

/// The blocks of one streamed list, in order, and how its reading ended.
#[derive(Default)]
struct Streamed {
    parts: Vec<Option<Snapshot>>,
    /// The number of blocks read, and whether the list's layout held to the end.
    end: Option<(usize, bool)>,
}

impl Streamed {
    /// The list's objects, when every block was read and decoded cleanly.
    fn into_out(self, name: String) -> Option<FileOut> {
        let (blocks, true) = self.end? else {
            return None;
        };
        if self.parts.len() != blocks || self.parts.iter().any(Option::is_none) {
            return None;
        }
        let mut out = FileOut::named(name);
        for part in self.parts.into_iter().flatten() {
            out.add_part(part);
        }
        Some(out)
    }
}

/// What a thread finished.
enum Done {
    /// A file read whole.
    File(Box<FileOut>),
    /// A decoded block of a streamed list (`None`: it did not decode cleanly).
    Block {
        seq: usize,
        part: Option<Box<Snapshot>>,
    },
    /// The end of a streamed list: how many blocks it had, and whether its layout held.
    Stream { blocks: usize, ok: bool },
}

impl<'a> Pool<'a> {
    fn new(jobs: &'a [Job], anchor: jiff::Timestamp, stream: bool) -> Pool<'a> {
        Pool {
            jobs,
            anchor,
            threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            stream,
            next: AtomicUsize::new(0),
            queue: Mutex::new(Queue::default()),
            ready: Condvar::new(),
            done: Mutex::new(Vec::new()),
            buffers: Buffers::default(),
        }
    }

    /// Runs every job; `None` for a streamed list that must be read again whole.
    fn run_all(&self) -> Vec<Option<FileOut>> {
        let threads = self.threads.min(self.jobs.len()).max(1);
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| self.work());
            }
        });
        let mut done = std::mem::take(&mut *lock(&self.done));
        done.sort_by_key(|(job, d)| {
            let seq = match d {
                Done::Block { seq, .. } => *seq,
                _ => usize::MAX,
            };
            (*job, seq)
        });
        let mut outs: Vec<Option<FileOut>> = (0..self.jobs.len()).map(|_| None).collect();
        let mut streamed: Vec<Streamed> =
            (0..self.jobs.len()).map(|_| Streamed::default()).collect();
        for (job, d) in done {
            match d {
                Done::File(out) => outs[job] = Some(*out),
                Done::Block { part, .. } => streamed[job].parts.push(part.map(|p| *p)),
                Done::Stream { blocks, ok } => streamed[job].end = Some((blocks, ok)),
            }
        }
        for (job, s) in streamed.into_iter().enumerate() {
            if let Some(out) = s.into_out(self.jobs[job].name()) {
                outs[job] = Some(out);
            }
        }
        outs
    }

    fn work(&self) {
        loop {
            if let Some(b) = lock(&self.queue).blocks.pop_front() {
                self.decode(b);
                continue;
            }
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if let Some(job) = self.jobs.get(i) {
                self.start(i, job);
                continue;
            }
            // Nothing left to start: help with the blocks of lists still being read.
            let mut q = lock(&self.queue);
            loop {
                if let Some(b) = q.blocks.pop_front() {
                    drop(q);
                    self.decode(b);
                    break;
                }
                if q.readers == 0 {
                    return;
                }
                q = self.ready.wait(q).unwrap_or_else(|e| e.into_inner());
            }
        }
    }

    fn start(&self, i: usize, job: &Job) {
        if let (true, Job::File(path)) = (self.stream, job)
            && std::fs::metadata(path).is_ok_and(|m| m.len() >= stream::MIN_BYTES)
            && let Ok(mut file) = std::fs::File::open(path)
            && let Ok((bytes, Some(head))) = stream::read_head(&mut file)
        {
            return self.read_stream(i, file, &bytes, &head);
        }
        let out = load_job(job, self.anchor);
        lock(&self.done).push((i, Done::File(Box::new(out))));
    }

    /// Reads a large list as blocks, queueing them for every thread.
    fn read_stream(&self, job: usize, file: std::fs::File, bytes: &[u8], head: &Head) {
        lock(&self.queue).readers += 1;
        let mut blocks = Blocks::new(file, bytes, head, &self.buffers);
        let mut seq = 0;
        let ok = loop {
            match blocks.next_block() {
                Ok(Some(bytes)) => {
                    self.queue_block(Block {
                        job,
                        seq,
                        bytes,
                        item_kind: head.item_kind.clone(),
                        api: head.api.clone(),
                    });
                    seq += 1;
                }
                Ok(None) => break blocks.tail.as_ref().is_some_and(|t| t.agrees(head)),
                Err(()) => break false,
            }
        };
        lock(&self.done).push((job, Done::Stream { blocks: seq, ok }));
        lock(&self.queue).readers -= 1;
        self.ready.notify_all();
    }

    fn queue_block(&self, b: Block) {
        let mut q = lock(&self.queue);
        q.blocks.push_back(b);
        self.ready.notify_one();
        // More waiting than threads to take them: decode one here rather than read on.
        if q.blocks.len() > self.threads
            && let Some(b) = q.blocks.pop_front()
        {
            drop(q);
            self.decode(b);
        }
    }

    fn decode(&self, mut b: Block) {
        crate::stream::empty_managed_fields(&mut b.bytes);
        let part = crate::json::fast_items(&b.bytes, &b.item_kind, &b.api).map(Box::new);
        self.buffers.give(b.bytes, 2 * self.threads + 2);
        lock(&self.done).push((b.job, Done::Block { seq: b.seq, part }));
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
