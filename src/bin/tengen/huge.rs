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

#[cfg(target_os = "linux")]
fn advise(p: *mut u8, size: usize) {
    const HUGE: usize = 2 << 20;
    if p.is_null() || size < MIN {
        return;
    }
    // The whole 2 MiB pages inside the block.
    let start = (p as usize).div_ceil(HUGE) * HUGE;
    let end = (p as usize + size) / HUGE * HUGE;
    if end > start {
        // SAFETY: [start, end) lies inside the block the system allocator
        // just returned (start >= p, end <= p + size), and MADV_HUGEPAGE
        // only advises the kernel: it changes no content and no mapping
        // the program sees. A failure (a kernel without THP) is harmless.
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
