/* replay_main.c: runs a fuzz target's LLVMFuzzerTestOneInput over files, without
 * libFuzzer, so any C compiler (gcc in CI) can replay the corpus and the regressions.
 *
 *   replay FILE_OR_DIR...   each file, and each file directly inside a directory
 *                           (names starting with '.' and README* are skipped)
 *
 * Exit status 0 when every input ran; a target's failed check abort()s, and a sanitizer
 * report exits non-zero, so the status tells the caller.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return -1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    int rc = 0;
    for (;;) {
        if (buf == NULL) {
            fprintf(stderr, "%s: out of memory\n", path);
            rc = -1;
            break;
        }
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap) break;
        uint8_t *bigger = realloc(buf, cap * 2);
        if (bigger == NULL) free(buf);
        buf = bigger;
        cap *= 2;
    }
    if (rc == 0 && ferror(f)) {
        perror(path);
        rc = -1;
    }
    fclose(f);
    if (rc == 0) {
        /* An exact-size copy, as libFuzzer gives it, so a read past the end is seen. */
        uint8_t *exact = malloc(len ? len : 1);
        if (exact == NULL) {
            rc = -1;
        } else {
            memcpy(exact, buf, len);
            LLVMFuzzerTestOneInput(exact, len);
            free(exact);
        }
    }
    free(buf);
    return rc;
}

static int skipped_name(const char *name) {
    return name[0] == '.' || strncmp(name, "README", 6) == 0;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Replays the regular files directly inside `dir`, in name order. */
static int replay_dir(const char *dir, long *count) {
    DIR *d = opendir(dir);
    if (d == NULL) {
        perror(dir);
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (skipped_name(e->d_name)) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **bigger = realloc(names, cap * sizeof(*names));
            if (bigger == NULL) {
                rc = -1;
                break;
            }
            names = bigger;
        }
        names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2);
        if (names[n] == NULL) {
            rc = -1;
            break;
        }
        sprintf(names[n], "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    if (rc == 0) qsort(names, n, sizeof(*names), compare_names);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (rc == 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            if (replay_file(names[i]) < 0) rc = -1;
            else (*count)++;
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv) {
    long count = 0;
    int rc = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE_OR_DIR...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            rc = 1;
        } else if (S_ISDIR(st.st_mode)) {
            if (replay_dir(argv[i], &count) < 0) rc = 1;
        } else if (replay_file(argv[i]) < 0) {
            rc = 1;
        } else {
            count++;
        }
    }
    printf("replayed %ld input(s)\n", count);
    return rc;
}
