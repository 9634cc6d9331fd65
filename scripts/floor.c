/*
 * The floor of a full build, for `make bench`: what any static-site generator must do with a
 * content folder, done as plainly as C allows. It lists the folder, reads every file and renders
 * every Markdown body (the text after its front matter) with libcmark, one call per body, on every
 * core, and writes nothing. Issue 7 sets the full build's target against it ("within 3× of the
 * floor"), and a bench that times it beside the build says how fast the machine was that hour.
 *
 *     cc -O2 -o floor scripts/floor.c -lcmark -lpthread && ./floor CONTENT
 *
 * Prints one line: the files read, their bytes, the bodies rendered and the HTML's bytes. Dot
 * files and folders (the caches in .prolific/) are left out, as a build leaves them, and so are
 * links below the top two levels; exits 1 when a file can't be read.
 */
#define _GNU_SOURCE
#include <cmark.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The work is handed out a subtree at a time: each entry of a top-level folder (a project, a
 * profile) is one item, walked, read and rendered by one thread. */
typedef struct {
    char **paths;
    size_t count, capacity;
} List;

typedef struct {
    unsigned long long files, bytes, bodies, html;
    int failed;
} Totals;

static List items;
static atomic_size_t next_item;

static void add(List *list, const char *path) {
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? list->capacity * 2 : 1024;
        list->paths = realloc(list->paths, list->capacity * sizeof *list->paths);
        if (!list->paths) { perror("floor"); exit(1); }
    }
    list->paths[list->count++] = strdup(path);
}

/* The body of a Markdown file: what follows a front matter fenced by "---" lines, or all of it. */
static const char *body_of(const char *text, size_t length, size_t *body_length) {
    if (length >= 4 && memcmp(text, "---\n", 4) == 0) {
        const char *end = memmem(text + 4, length - 4, "\n---\n", 5);
        if (end) {
            const char *body = end + 5;
            *body_length = length - (size_t)(body - text);
            return body;
        }
    }
    *body_length = length;
    return text;
}

static void read_file(int folder, const char *name, Totals *totals, char **buffer, size_t *size) {
    int fd = openat(folder, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) { perror(name); totals->failed = 1; if (fd >= 0) close(fd); return; }
    if (!S_ISREG(st.st_mode)) { close(fd); return; }
    if ((size_t)st.st_size + 1 > *size) {
        *size = (size_t)st.st_size + 1;
        *buffer = realloc(*buffer, *size);
        if (!*buffer) { perror("floor"); exit(1); }
    }
    size_t length = 0;
    while (length < (size_t)st.st_size) {
        ssize_t got = read(fd, *buffer + length, (size_t)st.st_size - length);
        if (got > 0) { length += (size_t)got; continue; }
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) { perror(name); totals->failed = 1; close(fd); return; }
        break;
    }
    close(fd);
    totals->files++;
    totals->bytes += length;
    size_t name_length = strlen(name);
    if (name_length > 3 && strcmp(name + name_length - 3, ".md") == 0) {
        size_t body_length;
        const char *body = body_of(*buffer, length, &body_length);
        char *html = cmark_markdown_to_html(body, body_length, CMARK_OPT_DEFAULT | CMARK_OPT_SMART);
        totals->bodies++;
        totals->html += strlen(html);
        free(html);
    }
}

/* Reads everything under the folder `name` of `parent` (or the file itself). */
static void walk(int parent, const char *name, Totals *totals, char **buffer, size_t *size) {
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) { read_file(parent, name, totals, buffer, size); return; }
    DIR *dir = fdopendir(fd);
    if (!dir) { perror(name); totals->failed = 1; close(fd); return; }
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        if (entry->d_name[0] == '.') continue;
        unsigned char type = entry->d_type;
        if (type == DT_UNKNOWN) {  /* file systems that don't say: ask, as Prolific does */
            struct stat st;
            if (fstatat(fd, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) { perror(entry->d_name); totals->failed = 1; continue; }
            type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
        }
        if (type == DT_DIR) walk(fd, entry->d_name, totals, buffer, size);
        else if (type == DT_REG) read_file(fd, entry->d_name, totals, buffer, size);
    }
    closedir(dir);
}

static void *work(void *argument) {
    Totals totals = {0};  /* summed here, stored once: no cache line shared with the other threads */
    char *buffer = NULL;
    size_t size = 0;
    size_t index;
    while ((index = atomic_fetch_add(&next_item, 1)) < items.count)
        walk(AT_FDCWD, items.paths[index], &totals, &buffer, &size);
    free(buffer);
    *(Totals *)argument = totals;
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: floor CONTENT\n"); return 2; }
    DIR *root = opendir(argv[1]);
    if (!root) { perror(argv[1]); return 1; }
    struct dirent *top;
    char path[4096];
    while ((top = readdir(root))) {
        if (top->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", argv[1], top->d_name);
        if (top->d_type != DT_DIR) { add(&items, path); continue; }
        DIR *folder = opendir(path);
        if (!folder) { perror(path); return 1; }
        struct dirent *entry;
        while ((entry = readdir(folder))) {
            if (entry->d_name[0] == '.') continue;
            char item[sizeof path + 258];
            snprintf(item, sizeof item, "%s/%s", path, entry->d_name);
            add(&items, item);
        }
        closedir(folder);
    }
    closedir(root);

    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) cores = 1;
    pthread_t *threads = calloc((size_t)cores, sizeof *threads);
    Totals *totals = calloc((size_t)cores, sizeof *totals);
    if (!threads || !totals) { perror("floor"); return 1; }
    for (long i = 0; i < cores; i++)
        if (pthread_create(&threads[i], NULL, work, &totals[i]) != 0) { perror("floor"); return 1; }
    Totals sum = {0};
    for (long i = 0; i < cores; i++) {
        pthread_join(threads[i], NULL);
        sum.files += totals[i].files;
        sum.bytes += totals[i].bytes;
        sum.bodies += totals[i].bodies;
        sum.html += totals[i].html;
        sum.failed |= totals[i].failed;
    }
    printf("%llu files, %llu bytes read, %llu bodies rendered into %llu bytes of HTML, %ld threads\n",
           sum.files, sum.bytes, sum.bodies, sum.html, cores);
    return sum.failed;
}
