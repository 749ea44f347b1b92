//! One gateway log read on several cores, with the same records, errors and order as
//! [`read_gateway_log`](super::read_gateway_log).
//!
//! Most of a JSON log's reading time is turning each record's bytes into a [`GatewayRecord`]
//! (JSON fields, RFC 3339 instants); finding where a record ends is a `memchr` per line. So one
//! thread frames the file into batches of raw records (about [`BATCH_BYTES`] each), `workers`
//! threads convert them, and the caller's thread takes the converted batches back in file order
//! and hands the records on. The outcome is the serial reader's to the record: the same order,
//! the same first error with its line and field, the same skipped-line counts (one [`Tally`]
//! decides, on the caller's thread).
//!
//! Memory stays flat: every channel holds one batch, so at most about `2 × workers + 2` batches
//! exist at once whatever the file's size. When the caller stops at an error, dropping its ends
//! of the channels unblocks and ends the other threads.
//!
//! CSV logs, a single worker, and the browser build (wasm has no threads) read serially.

use super::error::GatewayError;
use super::reader::{ConvertedBatch, GatewayReader, ImportSummary, ReadOptions, read_serially};
use super::record::GatewayRecord;
use std::io::BufRead;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

/// Raw bytes per batch: large enough that the channel hand-offs cost nothing next to the
/// conversion, small enough that a few batches in flight are a few MiB.
pub const BATCH_BYTES: usize = 512 * 1024;

/// The conversion threads worth starting here: the machine's cores, at most 4 (the framing
/// thread and the caller's consumer are busy too), 1 in the browser.
pub fn default_workers() -> usize {
    if cfg!(target_arch = "wasm32") {
        return 1;
    }
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(4)
}

/// Reads a whole log like [`read_gateway_log`](super::read_gateway_log), converting records
/// on `workers` threads. `on_record` and `on_progress` run on the calling thread.
pub fn read_gateway_log_parallel<R: BufRead + Send>(
    reader: R,
    options: &ReadOptions,
    workers: usize,
    mut on_record: impl FnMut(GatewayRecord),
    mut on_progress: impl FnMut(u64),
) -> Result<ImportSummary, GatewayError> {
    let mut log = GatewayReader::new(reader, options)?;
    if workers < 2 || cfg!(target_arch = "wasm32") || !log.is_json() {
        return read_serially(log, options, on_record, on_progress);
    }
    let format = log.format();
    let mut tally = log.take_tally();
    let step = options.progress_every_bytes.max(1);
    let mut bytes_read = 0;
    let outcome: Result<(), GatewayError> = std::thread::scope(|scope| {
        let (mut raw_senders, mut done_receivers) = (Vec::new(), Vec::new());
        for _ in 0..workers {
            let (raw_tx, raw_rx) = sync_channel(1);
            let (done_tx, done_rx) = sync_channel(1);
            raw_senders.push(raw_tx);
            done_receivers.push(done_rx);
            scope.spawn(move || convert_batches(raw_rx, done_tx));
        }
        scope.spawn(move || frame_batches(&mut log, &raw_senders));
        let mut next_report = step;
        let mut sequence = 0usize;
        loop {
            // A worker that is gone panicked; the scope re-raises its panic when it ends.
            let Ok(batch) = done_receivers[sequence % workers].recv() else {
                return Ok(());
            };
            let last = batch.last;
            bytes_read = batch.bytes_read;
            tally.accept_batch(batch, &mut on_record)?;
            if bytes_read >= next_report {
                on_progress(bytes_read);
                next_report = bytes_read + step;
            }
            if last {
                return Ok(());
            }
            sequence += 1;
        }
        // Returning drops the receivers: the workers' and the framer's sends fail and they end.
    });
    outcome?;
    on_progress(bytes_read);
    Ok(tally.summary(format, bytes_read))
}

/// The framing thread: batches round-robin to the workers until the source ends or nobody
/// listens any more.
fn frame_batches<R: BufRead>(
    log: &mut GatewayReader<R>,
    workers: &[SyncSender<super::reader::RawBatch>],
) {
    let mut sequence = 0usize;
    while let Some(batch) = log.next_raw_batch(BATCH_BYTES) {
        let last = batch.last;
        if workers[sequence % workers.len()].send(batch).is_err() || last {
            return;
        }
        sequence += 1;
    }
}

/// A conversion thread: each raw batch in, its records out, in the order received.
fn convert_batches(raw: Receiver<super::reader::RawBatch>, done: SyncSender<ConvertedBatch>) {
    for batch in raw {
        if done.send(batch.convert()).is_err() {
            return;
        }
    }
}
