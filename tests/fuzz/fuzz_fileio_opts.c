/* fuzz_fileio_opts.c - sysbench fileio options (fileio/fileio.c
 * fileio_set, as `ssdbench fileio --name=value` feeds it), then the checks
 * of each command and the figures derived from valid options. The input is
 * lines "name=value" (or "name" alone); names of 64 bytes or more are
 * skipped, as the fileio command's parse refuses them before fileio_set. No file is touched. */
#include "fuzz.h"

#include "fileio/fileio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_cstr(data, size);
    char err[512];
    struct fileio_opts o;
    fileio_defaults(&o);
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *eq = strchr(line, '=');
        if (eq)
            *eq = 0;
        if (strlen(line) >= 64)
            continue;
        fileio_set(&o, line, eq ? eq + 1 : NULL, err, sizeof(err));
    }
    static const enum fileio_cmd cmds[3] = {FILEIO_PREPARE, FILEIO_RUN, FILEIO_CLEANUP};
    for (unsigned i = 0; i < 3; i++)
        if (fileio_check(&o, cmds[i], err, sizeof(err)) == 0 && cmds[i] == FILEIO_RUN) {
            (void)fileio_file_size(&o);
            (void)fileio_request_size(&o);
            cJSON_Delete(fileio_opts_json(&o));
            /* the shared request stream these options make: its first
             * requests must stay inside the files */
            struct fileio_src *src = fileio_src_new(&o, 2, 1);
            if (src) {
                const struct io_source *ios = fileio_src_ops(src);
                struct io_source_req q;
                for (unsigned k = 0; k < 64 && ios->next(ios->arg, k & 1, &q); k++)
                    if (q.target >= o.file_num || (q.len && q.off + q.len > fileio_file_size(&o)))
                        __builtin_trap();
                fileio_src_free(src);
            }
        }
    free(text);
    return 0;
}
