/* test_buf.c: the byte buffer and its JSON string escaping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "lib/buf.h"

static void test_append_and_printf(void **state)
{
	(void)state;
	hp_buf b = {0};
	hp_buf_puts(&b, "a");
	hp_buf_printf(&b, "%d-%s", 42, "x");
	hp_buf_putc(&b, '!');
	for (int i = 0; i < 1000; i++)
		hp_buf_putc(&b, 'z');
	assert_int_equal(b.len, 1006);
	assert_memory_equal(b.data, "a42-x!z", 7);
	assert_int_equal(b.data[b.len], '\0');
	hp_buf_free(&b);
	assert_null(b.data);
}

static void check_json(const char *in, const char *want)
{
	hp_buf b = {0};
	hp_buf_json_string(&b, in);
	assert_string_equal(b.data, want);
	hp_buf_free(&b);
}

static void test_json_escaping(void **state)
{
	(void)state;
	check_json("plain", "\"plain\"");
	check_json("q\"b\\", "\"q\\\"b\\\\\"");
	check_json("l\n\t\r\x01\x7f", "\"l\\n\\t\\r\\u0001\\u007f\"");
	check_json("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	           "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
	/* invalid UTF-8: a lone continuation, an overlong slash, a surrogate, a truncated sequence
	 */
	check_json("\x80", "\"\\ufffd\"");
	check_json("\xc0\xaf", "\"\\ufffd\\ufffd\"");
	check_json("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");
	check_json("\xe2\x82", "\"\\ufffd\\ufffd\"");
}

/* XML text: the five entities, controls XML 1.0 cannot hold as U+FFFD,
 * tab and newline kept, nothing for NULL */
static void test_xml_text(void **state)
{
	(void)state;
	hp_buf b = {0};
	hp_buf_xml_text(&b, "a<b>&\"c\"'d'\t\n\x01\x1f\x7f\xc3\xa9");
	assert_string_equal(b.data, "a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;\t\n"
	                            "\xef\xbf\xbd\xef\xbf\xbd\x7f\xc3\xa9");
	size_t len = b.len;
	hp_buf_xml_text(&b, NULL);
	hp_buf_xml_text(&b, "");
	assert_int_equal(b.len, len);
	hp_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_append_and_printf),
	    cmocka_unit_test(test_json_escaping),
	    cmocka_unit_test(test_xml_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
