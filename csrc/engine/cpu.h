/* cpu.h: the run-time choice of the AVX2 code paths, one switch for all of them.
 *
 * The engine is compiled for the x86-64 baseline (SSE2); a few hot functions have a twin
 * compiled for AVX2 (target attribute), chosen once at init where the CPU has AVX2:
 * observe.c's fixed planes, observe_codes.c's square codes, view.c's lean view; and
 * view_codes.c's codes straight from the game, whose only other path is through the view.
 * STRATEGO_NO_AVX2=1 turns them all off, so the tests can hold both paths to the same
 * bytes; a STRATEGO_NO_SIMD build (csrc/Makefile PORTABLE=1) has none.
 */
#ifndef STRATEGO_CPU_H
#define STRATEGO_CPU_H

#include <stdlib.h>

/* gcc or clang on x86-64: the AVX2 twins are compiled. */
#if defined(__SSE2__) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(STRATEGO_NO_SIMD)
#define CPU_AVX2_BUILD 1
#endif

/* 1 where the AVX2 twins run: they are compiled, the CPU has AVX2, and STRATEGO_NO_AVX2 is
 * unset or 0. For the init functions (it reads the environment). */
static inline int cpu_avx2(void) {
#ifdef CPU_AVX2_BUILD
    const char *off = getenv("STRATEGO_NO_AVX2");
    return __builtin_cpu_supports("avx2") && !(off != NULL && off[0] != '\0' && off[0] != '0');
#else
    return 0;
#endif
}

#endif
