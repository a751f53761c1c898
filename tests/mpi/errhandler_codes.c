/* Error classes, codes and strings a program adds: MPI_Add_error_class gives new, distinct
 * classes that MPI_Error_class maps to themselves, with an empty string until
 * MPI_Add_error_string gives one (and a second call replaces it); MPI_Add_error_code gives
 * distinct codes of a user class or of a predefined one, which MPI_Error_class maps to their
 * class and MPI_Error_string to their own string; the predefined classes keep their strings.
 * A user code handed to MPI_Comm_call_errhandler reaches the user handler as is. Misuse (under
 * Plexus, where the references differ): a string for a predefined class, a string longer than
 * MPI_MAX_ERROR_STRING - 1, a code of a class nobody made, MPI_Error_class/string of a value
 * that is no code. */
#include "attr_util.h"

#define CLASSES 5
#define CODES 3

static int handled = MPI_SUCCESS;
static void keep(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handled = *code;
}

static void expect_class_at(const char *file, int line, int code, int want)
{
    int cls = -1;
    int rc = MPI_Error_class(code, &cls);
    if (rc != MPI_SUCCESS || cls != want)
        tu_fail(file, line, "MPI_Error_class", "code %d: returned %d, class %d; expected %d", code, rc,
                cls, want);
}
#define EXPECT_CLASS(code, want) expect_class_at(__FILE__, __LINE__, (code), (want))

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(1, 0);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    char arg_text[MPI_MAX_ERROR_STRING];
    int arg_len;
    CHECK_MPI(MPI_Error_string(MPI_ERR_ARG, arg_text, &arg_len));

    int classes[CLASSES], codes[CLASSES][CODES];
    char text[MPI_MAX_ERROR_STRING];
    for (int i = 0; i < CLASSES; ++i) {
        CHECK_MPI(MPI_Add_error_class(&classes[i]));
        for (int j = 0; j < i; ++j)
            CHECK(classes[i] != classes[j], "MPI_Add_error_class gave %d twice", classes[i]);
        CHECK(classes[i] != MPI_SUCCESS, "a new class is MPI_SUCCESS");
#ifndef OPEN_MPI /* Open MPI 4.1.4 says MPI_ERR_UNKNOWN */
        EXPECT_CLASS(classes[i], classes[i]);
#endif
        EXPECT_STRING(classes[i], "");
        snprintf(text, sizeof text, "user class %d", i);
        CHECK_MPI(MPI_Add_error_string(classes[i], text));
        EXPECT_STRING(classes[i], text);
    }
    for (int i = 0; i < CLASSES; ++i)
        for (int j = 0; j < CODES; ++j) {
            CHECK_MPI(MPI_Add_error_code(classes[i], &codes[i][j]));
            EXPECT_CLASS(codes[i][j], classes[i]);
            EXPECT_STRING(codes[i][j], "");
            snprintf(text, sizeof text, "user code %d of class %d", j, i);
            CHECK_MPI(MPI_Add_error_string(codes[i][j], text));
            for (int a = 0; a <= i; ++a)
                for (int b = 0; b < (a == i ? j : CODES); ++b)
                    CHECK(codes[a][b] != codes[i][j], "MPI_Add_error_code gave %d twice", codes[i][j]);
            for (int a = 0; a < CLASSES; ++a)
                CHECK(codes[i][j] != classes[a], "code %d is also a class", codes[i][j]);
        }
    /* Every string is still its own; a second string replaces the first. */
    for (int i = 0; i < CLASSES; ++i) {
        snprintf(text, sizeof text, "user class %d", i);
        EXPECT_STRING(classes[i], text);
        for (int j = 0; j < CODES; ++j) {
            snprintf(text, sizeof text, "user code %d of class %d", j, i);
            EXPECT_STRING(codes[i][j], text);
        }
    }
    CHECK_MPI(MPI_Add_error_string(classes[0], "renamed"));
    EXPECT_STRING(classes[0], "renamed");

    /* A code of a predefined class: that class, its own string; the class keeps its string. */
    int arg_code;
    CHECK_MPI(MPI_Add_error_code(MPI_ERR_ARG, &arg_code));
    EXPECT_CLASS(arg_code, MPI_ERR_ARG);
    CHECK_MPI(MPI_Add_error_string(arg_code, "my argument error"));
#ifndef MPICH_VERSION /* MPICH 4.0.2 gives some other message */
    EXPECT_STRING(arg_code, "my argument error");
#endif
    EXPECT_STRING(MPI_ERR_ARG, arg_text);

    /* A user code through a user handler. */
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_create_errhandler(keep, &eh));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh));
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_SELF, codes[2][1]));
    CHECK_EQ(handled, codes[2][1]);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

#ifdef PLEXUS_MPI
    /* MPICH accepts all of these silently; Open MPI refuses most. */
    EXPECT_ERROR(MPI_Add_error_string(MPI_ERR_ARG, "mine"), MPI_ERR_ARG);
    EXPECT_STRING(MPI_ERR_ARG, arg_text);
    char long_text[MPI_MAX_ERROR_STRING + 8];
    memset(long_text, 'x', sizeof long_text - 1);
    long_text[MPI_MAX_ERROR_STRING] = '\0'; /* one character too many */
    EXPECT_ERROR(MPI_Add_error_string(classes[1], long_text), MPI_ERR_ARG);
    long_text[MPI_MAX_ERROR_STRING - 1] = '\0'; /* the longest */
    CHECK_MPI(MPI_Add_error_string(classes[1], long_text));
    EXPECT_STRING(classes[1], long_text);
    EXPECT_ERROR(MPI_Add_error_code(classes[CLASSES - 1] + 1, &arg_code), MPI_ERR_ARG);
    EXPECT_ERROR(MPI_Add_error_code(MPI_SUCCESS, &arg_code), MPI_ERR_ARG);
    EXPECT_ERROR(MPI_Add_error_string(codes[CLASSES - 1][CODES - 1] + 128, "x"), MPI_ERR_ARG);
    int cls, len;
    EXPECT_ERROR(MPI_Error_class(codes[CLASSES - 1][CODES - 1] + 128, &cls), MPI_ERR_ARG);
    EXPECT_ERROR(MPI_Error_string(-7, text, &len), MPI_ERR_ARG);
    /* Classes stay below 128: the library's own codes carry the class in their low 7 bits. */
    for (int i = 0; i < CLASSES; ++i)
        CHECK(classes[i] > MPI_ERR_WIN && classes[i] < 128, "user class %d", classes[i]);
#endif
    return tu_finish("%d classes and %d codes added, strings round trip (%d error checks)", CLASSES,
                     CLASSES * CODES + 1, au_checks);
}
