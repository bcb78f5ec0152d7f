// SPDX-License-Identifier: GPL-2.0
/*
 * ssd1306-sim: an I2C bus with a simulated SSD1306 (or SH1106) OLED controller on it, for the
 * Tabletop Companion's system test. The kernel's i2c-stub answers SMBus only, while luma.oled
 * sends its frames as plain I2C writes (I2C_RDWR); this adapter takes plain I2C messages
 * (SMBus calls reach it through the I2C core's emulation) and decodes the controller's
 * control-byte / command / data stream into its display RAM, then shows what the glass
 * would: sysfs attribute "frame" on the adapter (/sys/bus/i2c/devices/i2c-<bus>/frame) is
 * 128 x 64 pixels, one bit each, row by row from the top, the leftmost pixel in the most
 * significant bit of each byte, 1 = lit (the body of a raw PBM, "P4 128 64"). "state" says the
 * controller's settings in words. Every data write ends with sysfs_notify() on "frame", so a
 * reader can poll() for the next frame instead of sleeping.
 *
 * Orientation: luma sends segment remap (0xA1) and COM scan from the bottom (0xC8), the way
 * the usual modules are mounted; with those, RAM column 0, page 0, bit 0 is the top-left pixel
 * of "frame". Without them the picture mirrors, as on the glass.
 *
 * Parameters: bus (the adapter's number, /dev/i2c-<bus>), address (7-bit, default 0x3C) and
 * model ("ssd1306": 128-column RAM; "sh1106": 132-column RAM whose columns 2..129 are seen).
 */

#include <linux/device.h>
#include <linux/i2c.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#define WIDTH 128
#define HEIGHT 64
#define PAGES (HEIGHT / 8)
#define MAX_RAM_COLUMNS 132
#define FRAME_BYTES (WIDTH * HEIGHT / 8)

static int bus = 1;
module_param(bus, int, 0444);
MODULE_PARM_DESC(bus, "I2C adapter number (/dev/i2c-<bus>), default 1");

static unsigned short address = 0x3c;
module_param(address, ushort, 0444);
MODULE_PARM_DESC(address, "7-bit address of the simulated display, default 0x3c");

static char *model = "ssd1306";
module_param(model, charp, 0444);
MODULE_PARM_DESC(model, "ssd1306 (default) or sh1106");

enum addressing { HORIZONTAL = 0, VERTICAL = 1, PAGE = 2 };

struct controller {
	struct mutex lock;
	u8 ram[PAGES][MAX_RAM_COLUMNS];
	unsigned int ram_columns;	/* 128 (SSD1306) or 132 (SH1106) */
	unsigned int first_seen_column;	/* 0 (SSD1306) or 2 (SH1106) */
	bool display_on, inverse, entire_on, seg_remap, com_remap;
	u8 contrast, start_line, display_offset;
	enum addressing addressing;
	unsigned int col_start, col_end, page_start, page_end, col, page;
	/* a command whose argument bytes are still to come */
	u8 command, args[6];
	unsigned int args_wanted, args_got;
	unsigned long data_bytes, commands;
};

static struct controller oled;

/* How many argument bytes follow a command byte (0 for single-byte commands). */
static unsigned int argument_count(u8 command)
{
	switch (command) {
	case 0x20: /* memory addressing mode */
	case 0x81: /* contrast */
	case 0x8d: /* charge pump */
	case 0xa8: /* multiplex ratio */
	case 0xad: /* SH1106 DC-DC control */
	case 0xd3: /* display offset */
	case 0xd5: /* clock divide */
	case 0xd9: /* pre-charge period */
	case 0xda: /* COM pins */
	case 0xdb: /* VCOMH level */
		return 1;
	case 0x21: /* column address window */
	case 0x22: /* page address window */
	case 0xa3: /* vertical scroll area */
		return 2;
	case 0x29: case 0x2a: /* vertical and horizontal scroll setup */
		return 5;
	case 0x26: case 0x27: /* horizontal scroll setup */
		return 6;
	default:
		return 0;
	}
}

static void run_command(struct controller *c, u8 command, const u8 *args)
{
	switch (command) {
	case 0x00 ... 0x0f: /* page mode: column, low nibble */
		c->col = (c->col & 0xf0) | (command & 0x0f);
		break;
	case 0x10 ... 0x1f: /* page mode: column, high nibble */
		c->col = (c->col & 0x0f) | ((command & 0x0f) << 4);
		break;
	case 0x20:
		c->addressing = args[0] & 0x03;
		if (c->addressing > PAGE) /* 0b11 is invalid: the chip keeps page mode */
			c->addressing = PAGE;
		break;
	case 0x21:
		c->col_start = min_t(unsigned int, args[0] & 0x7f, c->ram_columns - 1);
		c->col_end = min_t(unsigned int, args[1] & 0x7f, c->ram_columns - 1);
		c->col = c->col_start;
		break;
	case 0x22:
		c->page_start = args[0] & 0x07;
		c->page_end = args[1] & 0x07;
		c->page = c->page_start;
		break;
	case 0x40 ... 0x7f:
		c->start_line = command & 0x3f;
		break;
	case 0x81:
		c->contrast = args[0];
		break;
	case 0xa0: case 0xa1:
		c->seg_remap = command & 1;
		break;
	case 0xa4: case 0xa5:
		c->entire_on = command & 1;
		break;
	case 0xa6: case 0xa7:
		c->inverse = command & 1;
		break;
	case 0xae: case 0xaf:
		c->display_on = command & 1;
		break;
	case 0xb0 ... 0xb7:
		c->page = command & 0x07;
		break;
	case 0xc0: case 0xc8:
		c->com_remap = command == 0xc8;
		break;
	case 0xd3:
		c->display_offset = args[0] & 0x3f;
		break;
	default:
		/* timing, power, scrolling and NOP: nothing the picture depends on */
		break;
	}
	c->commands++;
}

static void command_byte(struct controller *c, u8 byte)
{
	if (c->args_wanted) {
		c->args[c->args_got++] = byte;
		if (c->args_got == c->args_wanted) {
			c->args_wanted = 0;
			run_command(c, c->command, c->args);
		}
		return;
	}
	c->command = byte;
	c->args_got = 0;
	c->args_wanted = argument_count(byte);
	if (!c->args_wanted)
		run_command(c, byte, NULL);
}

/* One byte into display RAM at the pointer, then the pointer moves as the addressing mode says. */
static void data_byte(struct controller *c, u8 byte)
{
	if (c->col < c->ram_columns)
		c->ram[c->page][c->col] = byte;
	c->data_bytes++;
	switch (c->addressing) {
	case HORIZONTAL:
		if (c->col >= c->col_end) {
			c->col = c->col_start;
			c->page = c->page >= c->page_end ? c->page_start : c->page + 1;
		} else {
			c->col++;
		}
		break;
	case VERTICAL:
		if (c->page >= c->page_end) {
			c->page = c->page_start;
			c->col = c->col >= c->col_end ? c->col_start : c->col + 1;
		} else {
			c->page++;
		}
		break;
	case PAGE:
		c->col = c->col + 1 >= c->ram_columns ? 0 : c->col + 1;
		break;
	}
}

/*
 * One write message: control bytes, each saying whether what follows is commands (D/C# = 0)
 * or data (D/C# = 1), and whether only one byte follows before the next control byte
 * (Co = 1) or the rest of the message (Co = 0). Returns whether display RAM was written.
 */
static bool decode_write(struct controller *c, const u8 *buf, u16 len)
{
	bool wrote = false;
	u16 i = 0;

	while (i < len) {
		u8 control = buf[i++];
		bool is_data = control & 0x40;
		u16 end = (control & 0x80) ? min_t(u16, i + 1, len) : len;

		for (; i < end; i++) {
			if (is_data) {
				data_byte(c, buf[i]);
				wrote = true;
			} else {
				command_byte(c, buf[i]);
			}
		}
	}
	return wrote;
}

static struct i2c_adapter adapter;

static int sim_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs, int num)
{
	bool wrote = false;
	int i;

	for (i = 0; i < num; i++)
		if (msgs[i].addr != address || (msgs[i].flags & I2C_M_TEN))
			return -ENXIO; /* nobody acknowledges that address */

	mutex_lock(&oled.lock);
	for (i = 0; i < num; i++) {
		struct i2c_msg *msg = &msgs[i];

		if (msg->flags & I2C_M_RD) /* the status byte: bit 6 is "display off" */
			memset(msg->buf, oled.display_on ? 0x00 : 0x40, msg->len);
		else
			wrote |= decode_write(&oled, msg->buf, msg->len);
	}
	mutex_unlock(&oled.lock);

	if (wrote)
		sysfs_notify(&adap->dev.kobj, NULL, "frame");
	return num;
}

static u32 sim_functionality(struct i2c_adapter *adap)
{
	return I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL;
}

static const struct i2c_algorithm sim_algorithm = {
	.master_xfer = sim_xfer,
	.functionality = sim_functionality,
};

/* The glass: what a person would see, one bit a pixel, row by row, 1 = lit. */
static void render(const struct controller *c, u8 *frame)
{
	unsigned int x, y;

	memset(frame, 0, FRAME_BYTES);
	if (!c->display_on)
		return;
	for (y = 0; y < HEIGHT; y++) {
		unsigned int line = c->com_remap ? y : HEIGHT - 1 - y;
		unsigned int row = (line + c->start_line + c->display_offset) % HEIGHT;

		for (x = 0; x < WIDTH; x++) {
			unsigned int column = c->first_seen_column + (c->seg_remap ? x : WIDTH - 1 - x);
			bool lit = c->entire_on ||
				(((c->ram[row / 8][column] >> (row % 8)) & 1) ^ c->inverse);

			if (lit)
				frame[y * (WIDTH / 8) + x / 8] |= 0x80 >> (x % 8);
		}
	}
}

static ssize_t frame_read(struct file *file, struct kobject *kobj, struct bin_attribute *attr,
			  char *buf, loff_t offset, size_t count)
{
	static u8 frame[FRAME_BYTES]; /* guarded by oled.lock */

	if (offset >= FRAME_BYTES)
		return 0;
	count = min_t(size_t, count, FRAME_BYTES - offset);
	mutex_lock(&oled.lock);
	render(&oled, frame);
	memcpy(buf, frame + offset, count);
	mutex_unlock(&oled.lock);
	return count;
}
static BIN_ATTR_RO(frame, FRAME_BYTES);

static ssize_t state_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	static const char * const modes[] = { "horizontal", "vertical", "page" };
	ssize_t n;

	mutex_lock(&oled.lock);
	n = sysfs_emit(buf,
		       "model %s\naddress 0x%02x\ndisplay %s\ninverse %d\nentire_on %d\n"
		       "contrast %u\naddressing %s\ncolumns %u-%u\npages %u-%u\n"
		       "segment_remap %d\ncom_remap %d\nstart_line %u\ndisplay_offset %u\n"
		       "commands %lu\ndata_bytes %lu\n",
		       model, address, oled.display_on ? "on" : "off", oled.inverse,
		       oled.entire_on, oled.contrast, modes[oled.addressing], oled.col_start,
		       oled.col_end, oled.page_start, oled.page_end, oled.seg_remap,
		       oled.com_remap, oled.start_line, oled.display_offset, oled.commands,
		       oled.data_bytes);
	mutex_unlock(&oled.lock);
	return n;
}
static DEVICE_ATTR_RO(state);

static struct attribute *sim_attrs[] = { &dev_attr_state.attr, NULL };
static struct bin_attribute *sim_bin_attrs[] = { &bin_attr_frame, NULL };
static const struct attribute_group sim_group = {
	.attrs = sim_attrs,
	.bin_attrs = sim_bin_attrs,
};
static const struct attribute_group *sim_groups[] = { &sim_group, NULL };

static int __init sim_init(void)
{
	if (address < 0x08 || address > 0x77)
		return -EINVAL;
	mutex_init(&oled.lock);
	if (!strcmp(model, "ssd1306")) {
		oled.ram_columns = 128;
		oled.first_seen_column = 0;
	} else if (!strcmp(model, "sh1106")) {
		oled.ram_columns = 132;
		oled.first_seen_column = 2;
	} else {
		pr_err("ssd1306-sim: model must be ssd1306 or sh1106, not %s\n", model);
		return -EINVAL;
	}
	/* the reset state of the datasheet */
	oled.addressing = PAGE;
	oled.col_end = oled.ram_columns - 1;
	oled.page_end = PAGES - 1;
	oled.contrast = 0x7f;

	adapter.owner = THIS_MODULE;
	adapter.class = 0; /* no driver probes this bus for its own chips */
	adapter.algo = &sim_algorithm;
	adapter.nr = bus;
	adapter.dev.groups = sim_groups;
	snprintf(adapter.name, sizeof(adapter.name), "simulated %s OLED at 0x%02x", model, address);
	return i2c_add_numbered_adapter(&adapter);
}

static void __exit sim_exit(void)
{
	i2c_del_adapter(&adapter);
}

module_init(sim_init);
module_exit(sim_exit);

MODULE_DESCRIPTION("An I2C bus with a simulated SSD1306/SH1106 OLED controller, for system tests");
MODULE_LICENSE("GPL");
