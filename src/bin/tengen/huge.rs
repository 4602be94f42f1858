//! Transparent huge pages for the large tables.
//!
//! The solver's transposition table and position cache span up to
//! hundreds of megabytes read at random, where reads often miss the TLB
//! (a profile of the solver stalls right after the prefetch of a
//! position-cache slot). Linux backs memory with 2 MiB pages only where
//! asked (`/sys/kernel/mm/transparent_hugepage/enabled` is `madvise` on
//! Debian): this allocator asks, with `madvise(MADV_HUGEPAGE)`, for every
//! block of at least [`MIN`] bytes. Smaller blocks (among them the
//! playing search's 2.25 MiB tree chunks) and other systems are left as
//! the system allocator gives them. Measured in docs/tsumego.md (*Huge
//! pages*).

use std::alloc::{GlobalAlloc, Layout, System};

/// Blocks of at least this many bytes are advised.
const MIN: usize = 8 << 20;

/// The system allocator, advising large blocks to use huge pages.
pub struct HugePages;

/// The size of a huge page.
const HUGE: usize = 2 << 20;

/// The whole huge pages inside the block of `size` bytes at address `p`,
/// as `[start, end)`, when the block is large enough to be advised and
/// holds at least one.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn huge_range(p: usize, size: usize) -> Option<(usize, usize)> {
    if p == 0 || size < MIN {
        return None;
    }
    let start = p.div_ceil(HUGE) * HUGE;
    let end = (p + size) / HUGE * HUGE;
    (end > start).then_some((start, end))
}

#[cfg(target_os = "linux")]
fn advise(p: *mut u8, size: usize) {
    if let Some((start, end)) = huge_range(p as usize, size) {
        // SAFETY: [start, end) lies inside the block the system allocator
        // just returned (`huge_range`: start >= p, end <= p + size), and
        // MADV_HUGEPAGE only advises the kernel: it changes no content
        // and no mapping the program sees. A failure (a kernel without
        // THP) is harmless.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_: *mut u8, _: usize) {}

// SAFETY: every call is passed on unchanged to `System`, which upholds
// the GlobalAlloc contract; `advise` touches no memory.
unsafe impl GlobalAlloc for HugePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc`, passed on.
        let p = unsafe { System.alloc(layout) };
        advise(p, layout.size());
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc_zeroed`, passed on.
        let p = unsafe { System.alloc_zeroed(layout) };
        advise(p, layout.size());
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc`, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract for `realloc`, passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        advise(p, new_size);
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The advised range is whole huge pages, inside the block.
    #[test]
    fn the_advised_range_stays_inside_the_block() {
        // Too small, null, or no whole page inside: nothing.
        assert_eq!(huge_range(HUGE, MIN - 1), None);
        assert_eq!(huge_range(0, 64 << 20), None);
        // Aligned at both ends: the whole block.
        assert_eq!(huge_range(HUGE, MIN), Some((HUGE, HUGE + MIN)));
        // Unaligned (a malloc header before the data): the pages inside.
        for p in [HUGE + 16, 5 * HUGE - 1, 7 * HUGE + 4096] {
            for size in [MIN, MIN + 1, MIN + HUGE - 1, 3 * MIN + 123] {
                let (start, end) = huge_range(p, size).expect("a block of 8 MiB holds whole pages");
                assert!(start >= p && end <= p + size, "{p} {size}: {start}..{end}");
                assert_eq!((start % HUGE, end % HUGE), (0, 0));
                // No whole page is left out at either end.
                assert!(start - p < HUGE && p + size - end < HUGE);
            }
        }
    }
}
