/* ast.c: the spelling tables declared in ast.h. */
#include "ast.h"

const char *const hp_op_names[HP_OP_COUNT] = {
    [HP_OP_OR] = "or",         [HP_OP_AND] = "and", [HP_OP_EQ] = "==",  [HP_OP_NE] = "!=",
    [HP_OP_LT] = "<",          [HP_OP_LE] = "<=",   [HP_OP_GT] = ">",   [HP_OP_GE] = ">=",
    [HP_OP_IN] = "in",         [HP_OP_ADD] = "+",   [HP_OP_BAND] = "&", [HP_OP_NOT] = "not",
    [HP_OP_EXISTS] = "exists",
};

const char *const hp_field_names[HP_FIELD_COUNT] = {
    [HP_FIELD_NAME] = "name",       [HP_FIELD_UID] = "uid",     [HP_FIELD_GID] = "gid",
    [HP_FIELD_HOME] = "home",       [HP_FIELD_SHELL] = "shell", [HP_FIELD_GROUPS] = "groups",
    [HP_FIELD_MEMBERS] = "members",
};
