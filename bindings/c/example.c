/*
 * Opens a metagate file, runs one search and prints the names of the hits.
 *
 *   cc example.c -I../../include -L../../target/release -lmetagate -o example
 *   ./example metagate-demo.redb RIN_Tool_pr alignment
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "metagate.h"

/* Prints every "name":"..." value of the response (the body asks only for item.name). */
static void print_names(const char *json) {
    const char *key = "\"name\":\"";
    const char *p = json;
    int n = 0;
    while ((p = strstr(p, key)) != NULL) {
        p += strlen(key);
        const char *end = p;
        while (*end && !(*end == '"' && end[-1] != '\\')) end++;
        printf("%d. %.*s\n", ++n, (int)(end - p), p);
        p = end;
    }
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "metagate-demo.redb";
    const char *index = argc > 2 ? argv[2] : "RIN_Tool_pr";
    const char *words = argc > 3 ? argv[3] : "alignment";

    printf("metagate %s\n", mg_version());
    MgEngine *engine = NULL;
    char *err = NULL;
    int status = mg_open(path, MG_OPEN_EXISTING, &engine, &err);
    if (status != 0) {
        fprintf(stderr, "open failed (%d): %s\n", status, err);
        mg_string_free(err);
        return 1;
    }

    char body[512];
    snprintf(body, sizeof body,
             "{\"query\":{\"match\":{\"item.description\":\"%s\"}},\"size\":5,\"_source\":[\"item.name\"]}", words);
    char *response = NULL;
    status = mg_search(engine, index, body, &response);
    if (status != 200) {
        fprintf(stderr, "search failed (%d): %s\n", status, response);
        mg_string_free(response);
        mg_close(engine);
        return 1;
    }
    const char *total = strstr(response, "\"hits\":{\"total\":");
    printf("hits.total %ld\n", total ? strtol(total + 16, NULL, 10) : -1L);
    print_names(response);
    mg_string_free(response);

    /* An error answers with the status and the Elasticsearch error JSON. */
    status = mg_search(engine, "no_such_index", NULL, &response);
    printf("missing index -> %d %.60s...\n", status, response);
    mg_string_free(response);

    mg_close(engine);
    return 0;
}
